package lockstep.coordinator.collect;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.ListRunsResponse;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.LatencyHistograms;
import lockstep.common.Version;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.run.ExperimentRunner;
import lockstep.coordinator.run.NodeResults;
import lockstep.coordinator.run.PlanSchedule;
import lockstep.coordinator.run.RunFailedException;
import lockstep.coordinator.run.StepRunner;
import lockstep.coordinator.scenario.Scenario;
import org.HdrHistogram.Histogram;

/**
 * {@code lockstep collect RUN}: fetches what each agent still holds of a run (a coordinator that
 * died could not) and assembles it into a run record with status {@code collected}. Agents keep a
 * run's result 15 minutes after its lease ended it, so this finds the step that was in progress;
 * steps a coordinator had already cleaned are gone from the agents. Nodes that hold nothing of the
 * run, and steps that belong to another identity, are named in the record's errors.
 */
public final class RunCollector {
  public static final RunStatus STATUS = RunStatus.COLLECTED;
  private static final long CALL_MILLIS = 30_000;

  private final AgentEnsemble ensemble;

  public RunCollector(AgentEnsemble ensemble) {
    this.ensemble = ensemble;
  }

  /** One agent: its description and the runs it holds. */
  public record Holdings(Agent agent, DescribeResponse node, ListRunsResponse runs) {}

  /** Every agent's runs; agents that do not answer are in the fan-out's errors. */
  public FanOut<Holdings> survey() {
    return ensemble.call(
        "list runs",
        ensemble.agents(),
        a -> new Holdings(a, a.describe(), a.listRuns()),
        CALL_MILLIS);
  }

  /**
   * Whether an agent's run id is run {@code runId} itself or one of its steps ({@code RUN.STEP}).
   */
  static boolean partOf(String agentRunId, String runId) {
    return agentRunId.equals(runId) || agentRunId.startsWith(runId + ".");
  }

  private record Fetched(
      String node, RunSummary summary, GetResultResponse result, ClockOffset clock) {}

  /**
   * The run as the agents still hold it.
   *
   * @throws RunFailedException naming every node and why, when no agent holds a result of it for
   *     this caller
   */
  public RunRecord collect(String runId) {
    FanOut<Holdings> surveyed = survey();
    List<String> errors = new ArrayList<>(surveyed.errorMessages());
    List<AgentRecord> agents = new ArrayList<>();
    Map<Agent, List<RunSummary>> wanted = new LinkedHashMap<>();
    Map<Agent, String> names = new LinkedHashMap<>();
    for (Holdings h : surveyed.values().values()) {
      String node = h.node().getNodeName();
      names.put(h.agent(), node);
      agents.add(ExperimentRunner.agentRecord(h.agent().address(), h.node()));
      List<RunSummary> mine = new ArrayList<>();
      for (RunSummary s : h.runs().getRunsList()) {
        if (!partOf(s.getRunId(), runId)) {
          continue;
        }
        if (s.getYours()) {
          mine.add(s);
        } else {
          errors.add(
              "node "
                  + node
                  + ": "
                  + s.getRunId()
                  + " belongs to "
                  + s.getOwner()
                  + "; collect it as that identity (its certificate, token, or the owner id of its"
                  + " user)");
        }
      }
      if (h.runs().getRunsList().stream().noneMatch(s -> partOf(s.getRunId(), runId))) {
        errors.add(
            "node "
                + node
                + ": holds nothing of run "
                + runId
                + " (cleaned by its coordinator, dropped 15 min after its lease ended, or its agent"
                + " restarted)");
      }
      if (!mine.isEmpty()) {
        wanted.put(h.agent(), mine);
      }
    }
    FanOut<List<Fetched>> fetched =
        ensemble.call(
            "get result",
            wanted.keySet(),
            a -> {
              ClockOffset clock = ClockOffset.measure(a);
              List<Fetched> out = new ArrayList<>();
              for (RunSummary s : wanted.get(a)) {
                out.add(new Fetched(names.get(a), s, a.getResult(s.getRunId()), clock));
              }
              return out;
            },
            CALL_MILLIS);
    errors.addAll(fetched.errorMessages());
    List<Fetched> all =
        fetched.values().values().stream()
            .flatMap(List::stream)
            .sorted(Comparator.comparingLong(f -> f.summary().getPreparedAtUnixMillis()))
            .toList();
    if (all.isEmpty()) {
      List<String> lines = new ArrayList<>();
      lines.add("no agent holds a result of run " + runId + " that this identity may collect");
      lines.addAll(errors);
      throw new RunFailedException(lines);
    }
    WorkloadSpec spec = all.get(0).summary().getWorkload();
    Scenario shape =
        new Scenario(
            nameOf(runId),
            agents.stream().map(AgentRecord::address).toList(),
            List.of(),
            workloadType(spec),
            WorkloadParams.of(spec),
            spec,
            Duration.ZERO,
            Duration.ZERO,
            0);
    Map<String, List<Fetched>> bySteps = new LinkedHashMap<>();
    for (Fetched f : all) {
      bySteps.computeIfAbsent(stepOf(f.summary().getRunId(), runId), k -> new ArrayList<>()).add(f);
    }
    List<StepRecord> steps = new ArrayList<>();
    bySteps.forEach((id, nodes) -> steps.add(step(id, nodes, shape.bytesUnit(), errors)));
    String createdAt =
        Instant.ofEpochMilli(all.get(0).summary().getPreparedAtUnixMillis()).toString();
    errors.add(
        0,
        "collected by `lockstep collect` from what the agents still held; steps cleaned before are"
            + " not in it");
    return RunAnalyzer.analysed(
        new RunRecord(
            RunRecord.SCHEMA,
            runId,
            shape.name(),
            createdAt,
            Version.get(),
            shape.workloadType(),
            shape.workloadParams(),
            shape.unit(),
            shape.opName(),
            steps.stream().map(StepRecord::group).distinct().toList(),
            List.copyOf(agents),
            List.copyOf(steps),
            null,
            STATUS,
            List.copyOf(errors),
            1,
            List.of(),
            RunRecord.DEFAULT_SKEW_WARN_FRACTION));
  }

  private static StepRecord step(
      String id, List<Fetched> nodes, boolean bytesUnit, List<String> errors) {
    List<NodeResult> results = new ArrayList<>();
    Histogram merged = LatencyHistograms.create();
    long intended = Long.MAX_VALUE;
    List<String> stepErrors = new ArrayList<>();
    for (Fetched f : nodes) {
      var r = f.result().getResult();
      long start =
          r.getIntendedStartUnixNanos() > 0
              ? f.clock().toCoordinatorClock(r.getIntendedStartUnixNanos())
              : 0;
      if (start > 0) {
        intended = Math.min(intended, start);
      }
      NodeResult nr = NodeResults.of(f.node(), r, f.clock(), start, bytesUnit, 0);
      results.add(nr);
      merged.add(LatencyHistograms.decode(r.getLatencyHistogram()));
      if (!nr.ok()) {
        stepErrors.add(
            "node "
                + nr.node()
                + ": "
                + nr.status()
                + (nr.error() == null ? "" : ": " + nr.error().message()));
      }
    }
    errors.addAll(stepErrors);
    results = NodeResults.withShares(results);
    PlanSchedule.StepId parsed = PlanSchedule.parse(id);
    return new StepRecord(
        id,
        parsed.kind(),
        results.stream().map(NodeResult::node).toList(),
        intended == Long.MAX_VALUE ? 0 : intended,
        stepErrors.isEmpty() ? RunStatus.OK : RunStatus.FAILED,
        List.copyOf(results),
        StepRunner.aggregate(results, merged, bytesUnit),
        List.copyOf(stepErrors),
        parsed.group(),
        parsed.repeat());
  }

  static String stepOf(String agentRunId, String runId) {
    return agentRunId.length() > runId.length() ? agentRunId.substring(runId.length() + 1) : "all";
  }

  /** The scenario name inside a run id (DATE-TIME-NAME-XXXX), or the id itself. */
  static String nameOf(String runId) {
    String name = ExperimentRunner.scenarioNameIn(runId);
    return name != null ? name : runId;
  }

  /**
   * The scenario's name for the workload: write, read, lock-files, ping-pong, hot-lock, metadata.
   */
  static String workloadType(WorkloadSpec spec) {
    return spec.getKindCase().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}

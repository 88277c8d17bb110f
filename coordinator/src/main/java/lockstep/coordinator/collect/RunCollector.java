package lockstep.coordinator.collect;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.ListRunsResponse;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.results.RunIds;
import lockstep.coordinator.results.RunRecords;
import lockstep.coordinator.results.StepIds;
import lockstep.coordinator.results.StepResults;
import lockstep.coordinator.results.StepResults.NodeOutcome;

/**
 * {@code lockstep collect RUN}: fetches what each agent still holds of a run (a coordinator that
 * died could not) and assembles it into a run record with status {@code collected}. Agents keep a
 * run's result 15 minutes after its lease ended it, so this finds the step that was in progress;
 * steps a coordinator had already cleaned are gone from the agents. Nodes that hold nothing of the
 * run, and steps that belong to another identity, are named in the record's errors.
 */
public final class RunCollector {
  public static final RunStatus STATUS = RunStatus.COLLECTED;
  private static final Duration BUDGET = Duration.ofSeconds(30);

  private final AgentEnsemble ensemble;

  public RunCollector(AgentEnsemble ensemble) {
    this.ensemble = ensemble;
  }

  /** One agent: its description and the runs it holds. */
  public record Holdings(Agent agent, DescribeResponse node, ListRunsResponse runs) {}

  /** Every agent's runs; agents that do not answer are in the fan-out's errors. */
  public FanOut<Holdings> survey() {
    return ensemble.call(
        "list runs", BUDGET, ensemble.agents(), a -> new Holdings(a, a.describe(), a.listRuns()));
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
      agents.add(RunRecords.agent(h.agent().address(), h.node()));
      List<RunSummary> mine = new ArrayList<>();
      for (RunSummary s : h.runs().getRunsList()) {
        if (!StepIds.partOf(s.getRunId(), runId)) {
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
      if (h.runs().getRunsList().stream().noneMatch(s -> StepIds.partOf(s.getRunId(), runId))) {
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
            BUDGET,
            wanted.keySet(),
            a -> {
              ClockOffset clock = ClockOffset.measure(a);
              List<Fetched> out = new ArrayList<>();
              for (RunSummary s : wanted.get(a)) {
                out.add(new Fetched(names.get(a), s, a.getResult(s.getRunId()), clock));
              }
              return out;
            });
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
    WorkloadKind<?> kind = WorkloadKind.of(spec);
    Map<String, List<Fetched>> bySteps = new LinkedHashMap<>();
    for (Fetched f : all) {
      bySteps
          .computeIfAbsent(StepIds.stepOf(f.summary().getRunId(), runId), k -> new ArrayList<>())
          .add(f);
    }
    List<StepRecord> steps = new ArrayList<>();
    bySteps.forEach((id, nodes) -> steps.add(step(id, nodes, kind, errors)));
    String createdAt =
        Instant.ofEpochMilli(all.get(0).summary().getPreparedAtUnixMillis()).toString();
    errors.add(
        0,
        "collected by `lockstep collect` from what the agents still held; steps cleaned before are"
            + " not in it");
    return RunRecords.of(
        runId,
        createdAt,
        new RunRecords.RunShape(
            nameOf(runId),
            kind,
            spec,
            steps.stream().map(StepRecord::group).distinct().toList(),
            1,
            List.of(),
            RunRecord.DEFAULT_SKEW_WARN_FRACTION),
        agents,
        List.of(),
        steps,
        STATUS,
        errors);
  }

  private static StepRecord step(
      String id, List<Fetched> nodes, WorkloadKind<?> kind, List<String> errors) {
    List<NodeOutcome> outcomes = new ArrayList<>();
    long intended = Long.MAX_VALUE;
    for (Fetched f : nodes) {
      var r = f.result().getResult();
      long start =
          r.getIntendedStartUnixNanos() > 0
              ? f.clock().toCoordinatorClock(r.getIntendedStartUnixNanos())
              : 0;
      if (start > 0) {
        intended = Math.min(intended, start);
      }
      outcomes.add(new NodeOutcome(f.node(), r, f.clock(), start, 0));
    }
    StepIds.StepId parsed = StepIds.parse(id);
    StepRecord step =
        StepResults.of(
                id,
                parsed.kind(),
                nodes.stream().map(Fetched::node).toList(),
                intended == Long.MAX_VALUE ? 0 : intended,
                outcomes,
                kind,
                List.of(),
                Set.of())
            .withPlace(parsed.group(), parsed.repeat());
    errors.addAll(step.errors());
    return step;
  }

  /** The scenario name inside a run id (DATE-TIME-NAME-XXXX), or the id itself. */
  static String nameOf(String runId) {
    String name = RunIds.scenarioNameIn(runId);
    return name != null ? name : runId;
  }
}

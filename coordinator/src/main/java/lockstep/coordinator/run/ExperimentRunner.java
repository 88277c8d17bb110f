package lockstep.coordinator.run;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.agent.v1.DescribeResponse;
import lockstep.common.Version;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.PlanFields;
import lockstep.coordinator.scenario.PlanStep;
import lockstep.coordinator.scenario.Scenario;

/** Runs a scenario's plan ({@link PlanSchedule}: solo, all, ramp, repeated) into a RunRecord. */
public final class ExperimentRunner {
  private static final Pattern RUN_ID =
      Pattern.compile("\\d{8}-\\d{6}-(.+)-(?:[0-9a-f]{8}|[0-9a-f]{4})");
  private static final DateTimeFormatter RUN_ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
  private static final long DESCRIBE_TIMEOUT_MILLIS = 15_000;

  private final Scenario scenario;
  private final AgentEnsemble ensemble;
  private final RunListener listener;
  private final StepRunner steps;

  /** What has been run so far, for a partial record if the coordinator is interrupted. */
  private volatile Progress progress;

  private record Progress(
      String runId,
      String createdAt,
      List<AgentRecord> agents,
      List<StepRecord> done,
      List<Integer> ramp) {}

  public ExperimentRunner(Scenario scenario, AgentEnsemble ensemble, RunListener listener) {
    this(scenario, ensemble, listener, FaultBounds.defaults());
  }

  public ExperimentRunner(
      Scenario scenario, AgentEnsemble ensemble, RunListener listener, FaultBounds bounds) {
    this.scenario = scenario;
    this.ensemble = ensemble;
    this.listener = listener;
    this.steps = new StepRunner(scenario, ensemble, listener, bounds);
  }

  /** The step running now (null between steps). */
  public StepRunner.ActiveStep activeStep() {
    return steps.active();
  }

  /** The run so far with this status and errors (null before the agents were described). */
  public RunRecord snapshot(RunStatus status, List<String> errors) {
    Progress p = progress;
    return p == null ? null : record(p, status, errors);
  }

  private RunRecord record(Progress p, RunStatus status, List<String> errors) {
    return RunAnalyzer.analysed(
        new RunRecord(
            RunRecord.SCHEMA,
            p.runId(),
            scenario.name(),
            p.createdAt(),
            Version.get(),
            scenario.workloadType(),
            scenario.workloadParams(),
            scenario.unit(),
            scenario.opName(),
            scenario.plan().stream().map(PlanStep::yamlName).toList(),
            p.agents(),
            List.copyOf(p.done()),
            null,
            status,
            List.copyOf(errors),
            scenario.repeat(),
            p.ramp(),
            scenario.skewWarnFraction()));
  }

  /** An agent as run.json records it, from its Describe answer. */
  public static AgentRecord agentRecord(String address, DescribeResponse d) {
    return new AgentRecord(
            d.getNodeName(),
            address,
            d.getVersion(),
            d.getHostname(),
            d.getRoot(),
            d.getFsType(),
            d.getMountPoint(),
            d.getMountOptions(),
            d.getMountSource(),
            d.getKernel(),
            d.getCpuCount(),
            d.getCpuModel(),
            d.getMemoryBytes(),
            d.getBlockDevice(),
            d.getClusterSettingsMap())
        .withBootId(d.getBootId());
  }

  /**
   * TIME-NAME-RANDOM. 32 random bits: two runs of one scenario started in the same second must not
   * share an id (on agents they share, the second would join the first's run).
   */
  public static String newRunId(String name) {
    return RUN_ID_TIME.format(Instant.now())
        + "-"
        + name
        + "-"
        + String.format("%08x", ThreadLocalRandom.current().nextInt());
  }

  /**
   * The scenario name inside a run id from {@link #newRunId} (ids made before 2026-11-30 evening
   * end in 4 hex digits), or null.
   */
  public static String scenarioNameIn(String runId) {
    Matcher m = RUN_ID.matcher(runId);
    return m.matches() ? m.group(1) : null;
  }

  /**
   * Describes every agent (all must answer and have distinct node names), then runs the plan. Stops
   * at the first failed step; the record says which and why.
   */
  public RunRecord run(String runId) {
    List<Agent> agents = ensemble.agents();
    FanOut<DescribeResponse> described =
        ensemble.call("describe", agents, Agent::describe, DESCRIBE_TIMEOUT_MILLIS);
    if (!described.ok()) {
      throw new RunFailedException(described.errorMessages());
    }
    List<AgentRecord> agentRecords = new ArrayList<>();
    List<StepNode> nodes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Agent a : agents) {
      DescribeResponse d = described.values().get(a);
      if (!seen.add(d.getNodeName())) {
        throw new RunFailedException(
            List.of(
                "agent "
                    + a.address()
                    + ": node name '"
                    + d.getNodeName()
                    + "' is used by another agent too; start each agent with its own --name"));
      }
      nodes.add(new StepNode(d.getNodeName(), a));
      agentRecords.add(agentRecord(a.address(), d));
    }
    List<PlanSchedule.Scheduled> schedule = PlanSchedule.of(scenario, nodes);
    List<StepRecord> done = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<String> errors = new ArrayList<>();
    String createdAt = Instant.now().toString();
    Progress p =
        new Progress(
            runId,
            createdAt,
            List.copyOf(agentRecords),
            done,
            scenario.plan().contains(PlanStep.RAMP)
                ? PlanFields.counts(scenario.ramp(), nodes.size())
                : List.of());
    progress = p;
    for (PlanSchedule.Scheduled step : schedule) {
      StepRecord record =
          steps
              .run(runId, step.id(), step.kind(), step.nodes())
              .withPlace(step.group(), step.repeat());
      done.add(record);
      listener.stepFinished(record);
      if (!record.ok()) {
        errors.addAll(record.errors());
        break;
      }
    }
    return record(p, errors.isEmpty() ? RunStatus.OK : RunStatus.FAILED, errors);
  }
}

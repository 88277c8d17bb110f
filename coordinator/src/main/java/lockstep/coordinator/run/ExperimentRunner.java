package lockstep.coordinator.run;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import lockstep.agent.v1.DescribeResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.results.RunRecords;
import lockstep.coordinator.scenario.PlanFields;
import lockstep.coordinator.scenario.PlanStep;
import lockstep.coordinator.scenario.Scenario;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Runs a scenario's plan ({@link PlanSchedule}: solo, all, ramp, repeated) into a RunRecord. */
public final class ExperimentRunner {
  private static final Logger LOG = LogManager.getLogger(ExperimentRunner.class);

  private final RunSetup setup;
  private final StepRunner steps;
  private final StepRunner warmUp;

  /** What has been run so far, for a partial record if the coordinator is interrupted. */
  private volatile Progress progress;

  private record Progress(
      String runId,
      String createdAt,
      List<AgentRecord> agents,
      List<AgentRecord> watchers,
      List<StepRecord> done,
      List<Integer> ramp) {}

  public ExperimentRunner(RunSetup setup) {
    this.setup = setup;
    this.steps = new StepRunner(setup);
    this.warmUp = new StepRunner(setup.forWarmUp());
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
    Scenario scenario = setup.scenario();
    return RunRecords.of(
        p.runId(),
        p.createdAt(),
        new RunRecords.RunShape(
            scenario.name(),
            scenario.kind(),
            scenario.workloadParams(),
            scenario.plan().stream().map(PlanStep::yamlName).toList(),
            scenario.repeat(),
            p.ramp(),
            scenario.skewWarnFraction()),
        p.agents(),
        p.watchers(),
        p.done(),
        status,
        errors);
  }

  /** Every fault names a node of this run that the injector can act on, or the run is refused. */
  private void checkFaults(List<StepNode> nodes) {
    List<String> names = nodes.stream().map(StepNode::node).toList();
    // a watch-only node may be a fault's victim (the NFS server restarted); it counts as a node
    for (Fault f : setup.scenario().faults()) {
      String why =
          names.contains(f.node())
              ? setup.injector().refuses(f.node())
              : "no node '" + f.node() + "' among the agents (" + String.join(", ", names) + ")";
      if (why != null) {
        throw new RunFailedException(List.of("scenario fault '" + f.describe() + "': " + why));
      }
    }
  }

  /**
   * Describes every agent (all must answer and have distinct node names), then runs the plan. Stops
   * at the first failed step; the record says which and why.
   */
  public RunRecord run(String runId) {
    Scenario scenario = setup.scenario();
    List<Agent> agents = setup.ensemble().agents();
    FanOut<DescribeResponse> described = describe(setup.ensemble(), agents, setup.bounds());
    if (!described.ok()) {
      throw new RunFailedException(described.errorMessages());
    }
    List<AgentRecord> agentRecords = new ArrayList<>();
    List<AgentRecord> watcherRecords = new ArrayList<>();
    List<StepNode> nodes = new ArrayList<>();
    List<StepNode> watching = new ArrayList<>();
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
      boolean watches = setup.watchOnly().contains(a.address());
      (watches ? watching : nodes).add(new StepNode(d.getNodeName(), a));
      (watches ? watcherRecords : agentRecords).add(RunRecords.agent(a.address(), d));
    }
    if (nodes.isEmpty()) {
      throw new RunFailedException(
          List.of("every agent is watch-only: the workload needs at least one node to run on"));
    }
    List<StepNode> everyNode = new ArrayList<>(nodes);
    everyNode.addAll(watching);
    checkFaults(everyNode);
    List<PlanSchedule.Scheduled> schedule = PlanSchedule.of(scenario, nodes);
    List<StepRecord> done = new CopyOnWriteArrayList<>();
    List<String> errors = new ArrayList<>();
    String createdAt = Instant.now().toString();
    Progress p =
        new Progress(
            runId,
            createdAt,
            List.copyOf(agentRecords),
            List.copyOf(watcherRecords),
            done,
            scenario.plan().contains(PlanStep.RAMP)
                ? PlanFields.counts(scenario.ramp(), nodes.size())
                : List.of());
    progress = p;
    List<StepNode> fresh =
        scenario.warmUp() ? WarmUpStep.fresh(nodes, described.values()) : List.of();
    if (!fresh.isEmpty()) {
      StepRecord warm = WarmUpStep.run(warmUp, runId, fresh);
      setup.listener().warmedUp(fresh.stream().map(StepNode::node).toList(), warm);
    }
    List<StepNode> previous = List.of();
    for (PlanSchedule.Scheduled step : schedule) {
      long settle =
          LockResourceSettle.millis(
              scenario.kind(), scenario.workload(), previous, step.nodes(), agentRecords);
      if (settle > 0 && !settle(step.id(), settle)) {
        errors.add("interrupted while waiting before step " + step.id());
        break;
      }
      previous = step.nodes();
      StepRecord record =
          steps
              .run(runId, step.id(), step.kind(), step.nodes(), watching)
              .withPlace(step.group(), step.repeat());
      done.add(record);
      setup.listener().stepFinished(record);
      if (!record.ok()) {
        errors.addAll(record.errors());
        break;
      }
    }
    return record(p, errors.isEmpty() ? RunStatus.OK : RunStatus.FAILED, errors);
  }

  /**
   * Describes {@code agents} at once within {@link Phase#DESCRIBE}'s budget, each for as long as
   * its heartbeats (a KeepAlive naming no run, every heartbeat, each within a lease: {@link
   * FaultBounds#whileDescribing}) say it is alive: a slow agent that answers them is waited for,
   * one that stops answering is given up on then, its Describe cancelled.
   */
  public static FanOut<DescribeResponse> describe(
      AgentEnsemble ensemble, List<Agent> agents, FaultBounds bounds) {
    long began = System.nanoTime();
    try (StepGuard alive =
        StepGuard.whileDescribing(agents, bounds.forAgents(agents.size()).whileDescribing())) {
      return ensemble.callAsync(
          Phase.DESCRIBE.label(),
          Phase.DESCRIBE.budget(),
          agents,
          alive::scope,
          alive.unlessLost(Phase.DESCRIBE.label(), Agent::describeAsync));
    } finally {
      LOG.info(
          "phase describe: {} agents, {} ms",
          agents.size(),
          (System.nanoTime() - began) / 1_000_000);
    }
  }

  // A wait for a timer inside dlm_controld, which nothing outside it can observe.
  private boolean settle(String stepId, long millis) {
    setup.listener().settling(stepId, LockResourceSettle.reason(millis));
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

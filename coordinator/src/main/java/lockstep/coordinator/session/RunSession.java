package lockstep.coordinator.session;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.expect.ExpectationJudge;
import lockstep.coordinator.expect.ExpectationText;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.inventory.AgentSelection;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.TextReport;
import lockstep.coordinator.results.RunIds;
import lockstep.coordinator.run.ExperimentRunner;
import lockstep.coordinator.run.FaultBounds;
import lockstep.coordinator.run.RunSetup;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;

/**
 * One `lockstep run`: connect, run the plan, judge the scenario's expectations, save run.json, CSVs
 * and report.html, print the report.
 */
public final class RunSession {
  private final PrintStream out;
  private final ChannelSecurity security;
  private final FaultInjector faults;

  /** Where a scenario with faults is refused: agents started any other way than by a lab. */
  public static final String NOT_IN_A_LAB =
      "faults are carried out by a lab (the guest's QEMU process and QMP socket); these agents"
          + " are not a lab's: run it with `lockstep lab run SCENARIO`";

  public RunSession(PrintStream out) {
    this(out, ChannelSecurity.NONE);
  }

  /**
   * @param security how to reach the agents (TLS, token, owner id)
   */
  public RunSession(PrintStream out, ChannelSecurity security) {
    this(out, security, FaultInjector.none(NOT_IN_A_LAB));
  }

  /**
   * @param faults who carries out a scenario's faults (a lab's injector)
   */
  public RunSession(PrintStream out, ChannelSecurity security, FaultInjector faults) {
    this.out = out;
    this.security = security;
    this.faults = faults;
  }

  public record Outcome(RunRecord run, Path runJson) {
    public boolean ok() {
      return run.status() == RunStatus.OK;
    }

    /** The expectations the run's figures broke (none when the run failed: those are errors). */
    public long brokenExpectations() {
      return ExpectationJudge.broken(run);
    }
  }

  public Outcome execute(Scenario scenario, Path resultsDir) {
    return execute(
        scenario,
        resultsDir,
        new AgentSelection(scenario.agents(), Map.of(), Map.of()),
        FaultBounds.defaults());
  }

  /**
   * @param selection the scenario's agents with their labels (for the agent records) and roots
   *     (which of its roots an agent runs under), from an inventory
   * @param bounds the agents' lease and the coordinator's heartbeat
   */
  public Outcome execute(
      Scenario scenario, Path resultsDir, AgentSelection selection, FaultBounds bounds) {
    Map<String, Map<String, String>> labelsByAddress = selection.labels();
    int workloadNodes = scenario.agents().size() - selection.watchOnly().size();
    ScenarioParser.checkNodeCount(
        scenario,
        workloadNodes,
        scenario.name() + " on " + workloadNodes + " agent(s) that run the workload");
    List<Agent> agents =
        scenario.agents().stream()
            .<Agent>map(a -> GrpcAgent.connect(a, selection.root(a), security))
            .toList();
    try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
      String runId = RunIds.newRunId(scenario.name());
      out.printf(
          "Run %s: %s on %s, plan %s%n",
          runId,
          scenario.workloadType(),
          String.join(", ", scenario.agents()),
          scenario.plan().stream().map(p -> p.yamlName()).toList());
      ResultsStore store = new ResultsStore(resultsDir);
      try (Interruption interruption = Interruption.install(ensemble, store, runId, System.err)) {
        ExperimentRunner runner =
            new ExperimentRunner(
                new RunSetup(
                    scenario,
                    ensemble,
                    interruption.quiet(ConsoleProgress.forScenario(out, scenario)),
                    bounds,
                    faults,
                    selection.watchOnly()));
        interruption.attach(runner);
        RunRecord result = runner.run(runId);
        RunRecord labelled =
            labelsByAddress.isEmpty()
                ? result
                : result.withAgents(
                    result.agents().stream()
                        .map(a -> a.withLabels(labelsByAddress.getOrDefault(a.address(), Map.of())))
                        .toList());
        RunRecord run = ExpectationJudge.judged(labelled, scenario.expectations());
        return interruption.finish(
            () -> {
              Path saved = store.save(run);
              TextReport.print(run, out);
              ExpectationText.print(run.expectations(), out);
              out.printf(
                  "%nResults: %s%nReport:  %s%n",
                  saved, saved.resolveSibling(ResultsStore.REPORT_FILE));
              return new Outcome(run, saved);
            });
      }
    }
  }
}

package lockstep.coordinator.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.fault.FaultInjectorProvider;
import lockstep.coordinator.inventory.AgentSelection;
import lockstep.coordinator.inventory.AgentTargets;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.run.FaultBounds;
import lockstep.coordinator.scenario.Durations;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioException;
import lockstep.coordinator.scenario.ScenarioParser;
import lockstep.coordinator.session.RunSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep run SCENARIO.yaml [--agents H:P,...|dns:///NAME:PORT | --inventory FILE] [--out
 * DIR] [--expect FIGURE=COMPARISON ...] [--junit FILE]}.
 */
@Command(
    name = "run",
    description = {
      "Run a scenario's plan on the agents and report.",
      "--agents or --inventory, when given, take the place of the scenario's 'agents'; an"
          + " inventory's labels go into run.json."
    })
final class RunCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file.")
  Path scenarioFile;

  @Option(
      names = "--agents",
      split = ",",
      paramLabel = "HOST:PORT",
      description =
          "Agents to use (overrides the scenario's 'agents'); dns:///NAME:PORT means every address"
              + " of NAME.")
  List<String> agents;

  @CommandLine.Mixin InventoryOption inventory = new InventoryOption();

  @Option(
      names = "--nodes",
      split = ",",
      paramLabel = "NAME",
      description =
          "With --inventory: run on these of its nodes only (e.g. two of a three-node cluster).")
  List<String> nodes;

  @CommandLine.Mixin SavedResultsOption results = new SavedResultsOption();

  @Option(
      names = "--lease",
      defaultValue = "15s",
      paramLabel = "DURATION",
      description =
          "How long an agent keeps a run after it last heard from this coordinator (3s..10m,"
              + " default: ${DEFAULT-VALUE}); a killed coordinator's runs end and their files go"
              + " within it.")
  String lease;

  @CommandLine.Mixin ConnectionOptions connection = new ConnectionOptions();

  @CommandLine.Mixin ExpectOptions expectations = new ExpectOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Scenario parsed = new ScenarioParser().parse(scenarioFile);
    Scenario scenario =
        parsed.withExpectations(expectations.read(parsed.expectations(), parsed.figures()));
    Inventory nodesToRun = selectedNodes();
    AgentSelection selection =
        AgentSelection.choose(
            agents, nodesToRun, scenario.agents(), scenarioFile.toString(), AgentTargets.system());
    scenario = scenario.withAgents(selection.addresses());
    FaultBounds bounds = leaseBounds();
    RunSession.Outcome outcome;
    try {
      outcome =
          new RunSession(
                  System.out, connection.resolve(inventory.file), faults(scenario, nodesToRun))
              .execute(scenario, results.out, selection, bounds);
    } catch (RuntimeException e) {
      try {
        expectations.writeJUnit(scenario.name(), scenario.expectations(), e);
      } catch (RuntimeException junitFailed) {
        e.addSuppressed(junitFailed);
      }
      throw e;
    }
    expectations.writeJUnit(outcome.run());
    if (!outcome.ok()) {
      outcome.run().errors().forEach(e -> spec.commandLine().getErr().println("lockstep: " + e));
      spec.commandLine().getErr().flush();
      return LockstepCli.EXIT_RUN_FAILED;
    }
    return ExpectOptions.exitCode(outcome.run(), spec.commandLine().getErr());
  }

  /**
   * What carries out the scenario's faults on the inventory's nodes (the lab's injector, when the
   * inventory names a lab and the lab module is on the class path); other agents refuse them.
   */
  private FaultInjector faults(Scenario scenario, Inventory nodesToRun) {
    if (scenario.faults().isEmpty() || nodesToRun == null) {
      return FaultInjector.none(RunSession.NOT_IN_A_LAB);
    }
    return FaultInjectorProvider.find(nodesToRun, RunSession.NOT_IN_A_LAB);
  }

  /** The inventory, narrowed to --nodes; null without --inventory. */
  private Inventory selectedNodes() {
    if (nodes != null && inventory.file == null) {
      throw new ScenarioException("--nodes needs --inventory (it picks nodes of the inventory)");
    }
    Inventory inv = inventory.read();
    return inv == null || nodes == null ? inv : inv.only(nodes);
  }

  private FaultBounds leaseBounds() {
    Duration d;
    try {
      d = Durations.parse(lease);
    } catch (RuntimeException e) {
      d = null; // digits beyond a long
    }
    if (d == null) {
      throw new ScenarioException("--lease: '" + lease + "' is not a duration such as 15s or 2m");
    }
    try {
      return FaultBounds.forLease(d);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException("--lease: " + e.getMessage());
    }
  }
}

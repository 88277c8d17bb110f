package lockstep.coordinator.run;

import java.util.Set;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.scenario.Scenario;

/**
 * What a run works with: the scenario, the agents, who hears of its progress, the bounds that
 * notice a lost agent, and who carries out the scenario's faults (the lab's injector, if it has
 * any). {@code watchOnly}: the addresses of agents that only watch (an inventory node's {@code
 * role: watch}), in every step beside the workload's nodes, running none of it.
 */
public record RunSetup(
    Scenario scenario,
    AgentEnsemble ensemble,
    RunListener listener,
    FaultBounds bounds,
    FaultInjector injector,
    Set<String> watchOnly) {

  public RunSetup {
    watchOnly = watchOnly == null ? Set.of() : Set.copyOf(watchOnly);
  }

  public RunSetup(
      Scenario scenario,
      AgentEnsemble ensemble,
      RunListener listener,
      FaultBounds bounds,
      FaultInjector injector) {
    this(scenario, ensemble, listener, bounds, injector, Set.of());
  }

  /** The unmeasured warm-up step's: its own small workload, heard by no one. */
  RunSetup forWarmUp() {
    return new RunSetup(
        WarmUpStep.scenario(scenario), ensemble, RunListener.SILENT, bounds, injector, watchOnly);
  }
}

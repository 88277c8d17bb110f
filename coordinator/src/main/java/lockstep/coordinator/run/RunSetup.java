package lockstep.coordinator.run;

import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.scenario.Scenario;

/**
 * What a run works with: the scenario, the agents, who hears of its progress, the bounds that
 * notice a lost agent, and who carries out the scenario's faults (the lab's injector, if it has
 * any).
 */
public record RunSetup(
    Scenario scenario,
    AgentEnsemble ensemble,
    RunListener listener,
    FaultBounds bounds,
    FaultInjector injector) {

  /** The unmeasured warm-up step's: its own small workload, heard by no one. */
  RunSetup forWarmUp() {
    return new RunSetup(
        WarmUpStep.scenario(scenario), ensemble, RunListener.SILENT, bounds, injector);
  }
}

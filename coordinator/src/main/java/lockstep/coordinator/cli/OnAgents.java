package lockstep.coordinator.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine;

/**
 * A command on the agents that {@link AgentTargetOptions} names ({@code agents}, {@code collect},
 * {@code abort}): its input is checked before any agent is reached, then {@link #on} gives its exit
 * status with a client per agent, closed after.
 */
abstract class OnAgents implements Callable<Integer> {
  @CommandLine.Mixin AgentTargetOptions targets = new AgentTargetOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    check();
    try (AgentEnsemble ensemble = new AgentEnsemble(targets.connect())) {
      return on(ensemble);
    }
  }

  /** Refuses bad input before any agent is reached; nothing to check unless overridden. */
  void check() {}

  /** The command's work on the agents ({@link AgentEnsemble#agents} in the order given). */
  abstract int on(AgentEnsemble agents);

  /** {@code message} as one "lockstep: " line on this command's error stream. */
  void printError(String message) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("lockstep: " + message);
    err.flush();
  }

  /** RUN as a user gives it: a run id, not a path. */
  static void checkRunId(String runId) {
    if (runId.isBlank() || runId.contains("/") || runId.startsWith(".")) {
      throw new ScenarioException(
          "RUN: '" + Echo.value(runId) + "' is not a run id (such as 20261130-134608-demo-a2c7)");
    }
  }
}

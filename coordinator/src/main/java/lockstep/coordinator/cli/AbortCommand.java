package lockstep.coordinator.cli;

import java.util.List;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.collect.RunAborter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep abort RUN --agents H:P,... | --inventory FILE}: stops RUN wherever it still runs
 * or holds files (a coordinator that lost its network, or was left running) and removes its files;
 * only as the identity that prepared it.
 */
@Command(
    name = "abort",
    description =
        "Abort RUN on every agent that still holds it and remove its files (only its owner may).")
final class AbortCommand extends OnAgents {
  @Parameters(
      index = "0",
      paramLabel = "RUN",
      description = "Run id (as `lockstep run` printed it, or as `lockstep collect` lists it).")
  String runId;

  @Override
  void check() {
    checkRunId(runId);
  }

  @Override
  int on(AgentEnsemble agents) {
    var outcome = new RunAborter(agents).abort(runId, "aborted by `lockstep abort`");
    int steps = 0;
    for (Agent a : agents.agents()) {
      for (RunAborter.Aborted s : outcome.values().getOrDefault(a, List.of())) {
        steps++;
        System.out.printf(
            "node %s: %s aborted, %d file(s) removed%s%n",
            s.node(),
            s.agentRunId(),
            s.filesRemoved(),
            s.leftovers().isEmpty() ? "" : "; left: " + String.join("; ", s.leftovers()));
      }
    }
    outcome.errorMessages().forEach(this::printError);
    if (outcome.ok() && steps == 0) {
      printError(
          "no agent holds run "
              + runId
              + " in progress (see `lockstep collect` for what they hold)");
    }
    return outcome.ok() && steps > 0 ? 0 : LockstepCli.EXIT_RUN_FAILED;
  }
}

package lockstep.coordinator.cli;

import java.util.concurrent.Callable;
import lockstep.coordinator.launch.AgentLauncher;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lockstep agents stop --ssh user@host,...} (or {@code --inventory FILE}): ends agents
 * started by launch.
 */
@Command(
    name = "stop",
    description =
        "End the agents that 'agents launch' started on these nodes (SIGTERM, then SIGKILL after 20"
            + " s).")
final class AgentsStopCommand implements Callable<Integer> {
  @Mixin SshLaunchOptions nodes;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    var out = new AgentLauncher(nodes.client()).stop(nodes.targets(), nodes.remoteDir);
    out.done().forEach((t, what) -> System.out.println(t + ": " + what));
    var err = spec.commandLine().getErr();
    out.failed().values().forEach(m -> err.println("lockstep: stop failed: " + m));
    err.flush();
    return out.ok() ? 0 : LockstepCli.EXIT_RUN_FAILED;
  }
}

package lockstep.coordinator.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import lockstep.coordinator.local.Demo;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lockstep demo}: local agents on loopback, both seed experiments scaled down, the report.
 */
@Command(
    name = "demo",
    description =
        "Start local agent processes on loopback and run both seed experiments, scaled down.")
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--nodes",
      defaultValue = "3",
      paramLabel = "N",
      description = "Number of local agents (default: ${DEFAULT-VALUE}).")
  int nodes;

  @CommandLine.Mixin SavedResultsOption results = new SavedResultsOption();

  @Override
  public Integer call() throws IOException {
    if (nodes < 1 || nodes > 16) {
      throw new ScenarioException("--nodes: " + nodes + " is outside 1 .. 16");
    }
    return new Demo(System.out, nodes, results.out).run() ? 0 : LockstepCli.EXIT_RUN_FAILED;
  }
}

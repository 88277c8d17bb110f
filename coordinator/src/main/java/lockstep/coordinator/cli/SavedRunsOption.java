package lockstep.coordinator.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --out DIR}: where saved runs are read from, and where a run id is looked up ({@code
 * report}, {@code compare}, {@code history}); {@link SavedResultsOption} is where they are written.
 */
final class SavedRunsOption {
  @Option(
      names = "--out",
      defaultValue = "results",
      paramLabel = "DIR",
      description = "Where saved runs are and run ids are looked up (default: ${DEFAULT-VALUE}).")
  Path out;
}

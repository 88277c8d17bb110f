package lockstep.coordinator.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --out DIR}: where a command saves results/RUN-ID/ ({@code run}, {@code collect}, {@code
 * demo}).
 */
final class SavedResultsOption {
  @Option(
      names = "--out",
      defaultValue = "results",
      paramLabel = "DIR",
      description = "Where results/<run-id>/ go (default: ${DEFAULT-VALUE}).")
  Path out;
}

package lockstep.coordinator.results;

import java.util.List;

/** A run that could not go on; each line names the node and what failed. */
public final class RunFailedException extends RuntimeException {
  private final List<String> lines;

  public RunFailedException(List<String> lines) {
    super(String.join("; ", lines));
    this.lines = List.copyOf(lines);
  }

  public List<String> lines() {
    return lines;
  }
}

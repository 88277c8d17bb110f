package lockstep.agent.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.worker.ProgressCounter;

/**
 * The agent's side of a worker's {@link ProgressCounter}: a file of its own in the agent's
 * temporary directory, mapped here and by the worker, removed as soon as both have it (or the
 * worker is gone), so nothing is left behind even if the agent is killed later.
 */
final class CountFile {
  private final Path path;
  private final ProgressCounter counter;

  private CountFile(Path path, ProgressCounter counter) {
    this.path = path;
    this.counter = counter;
  }

  /** A worker's before it has a task (a spare): no file, count 0. */
  static final CountFile NONE = new CountFile(null, ProgressCounter.local());

  /** A mapped count file, or none (path "", count 0) when the run has no instrumentation. */
  static CountFile make(boolean none) throws IOException {
    if (none) {
      return new CountFile(null, ProgressCounter.local());
    }
    Path file = Files.createTempFile(prefix(), "");
    try {
      return new CountFile(file, ProgressCounter.map(file));
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }

  /** The agent's pid in the name: whose file one left behind in a shared temporary directory is. */
  static String prefix() {
    return "lockstep-count-" + ProcessHandle.current().pid() + "-";
  }

  /** Where the worker maps it; "" for none. */
  String path() {
    return path == null ? "" : path.toString();
  }

  long get() {
    return counter.get();
  }

  void remove() {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException ignored) {
        // the temporary directory's own clean-up takes it
      }
    }
  }
}

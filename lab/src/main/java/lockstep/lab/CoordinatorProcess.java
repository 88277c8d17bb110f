package lockstep.lab;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * {@code lockstep ARGS...} as a process inside the lab's namespace, where the inventories'
 * addresses (127.0.0.1 of the namespace) lead to the guests' agents; its output copied to this
 * command's (so that where that is captured, a test's log, the run's own words are too).
 */
final class CoordinatorProcess {
  /**
   * How long a coordinator gets after SIGTERM: it aborts its agents' runs (their workers end, their
   * files go) before it exits.
   */
  static final Duration ABORT_GRACE = Duration.ofSeconds(10);

  private final String namespace;
  private final LabFiles files;
  private final Commands commands;
  private final PrintStream out;
  private final PrintStream err;

  CoordinatorProcess(
      String namespace, LabFiles files, Commands commands, PrintStream out, PrintStream err) {
    this.namespace = namespace;
    this.files = files;
    this.commands = commands;
    this.out = out;
    this.err = err;
  }

  /** Runs it to its end; its exit code. */
  int run(List<String> args) {
    List<String> full = Netns.exec(namespace, files.lockstep(args));
    out.println("lab: $ " + String.join(" ", full));
    out.flush();
    return commands.stream(full, out, err);
  }
}

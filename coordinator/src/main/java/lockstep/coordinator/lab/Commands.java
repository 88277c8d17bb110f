package lockstep.coordinator.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.coordinator.launch.ChildOutput;

/** Runs host programs, each bounded in time, their output kept (and optionally logged). */
final class Commands {
  /** Exit status and output of one program. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    boolean ok() {
      return exitCode == 0;
    }

    /** The last non-empty line of stderr, else of stdout. */
    String lastLine() {
      for (String text : List.of(stderr, stdout)) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (!lines.isEmpty()) {
          return lines.get(lines.size() - 1);
        }
      }
      return "exit status " + exitCode;
    }

    /** Throws a one-line {@link LabException} naming {@code what} unless the program succeeded. */
    Result orThrow(String what) {
      if (!ok()) {
        throw new LabException(what + " failed: " + lastLine());
      }
      return this;
    }
  }

  private final LabLog log;

  Commands(LabLog log) {
    this.log = log;
  }

  Result run(List<String> cmd, Duration timeout) {
    return run(cmd, "", timeout, null);
  }

  /**
   * Runs {@code cmd} with {@code stdin}; stdout and stderr are kept and also appended to the lab's
   * log; {@code dir} is the working directory (null: this one).
   */
  Result run(List<String> cmd, String stdin, Duration timeout, Path dir) {
    return run(cmd, stdin, timeout, dir, Map.of());
  }

  /** {@link #run(List, String, Duration, Path)} with {@code env} added to the environment. */
  Result run(List<String> cmd, String stdin, Duration timeout, Path dir, Map<String, String> env) {
    log.line("$ " + String.join(" ", cmd));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    if (dir != null) {
      pb.directory(dir.toFile());
    }
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new LabException("cannot run " + cmd.get(0) + ": " + e.getMessage());
    }
    ChildOutput output = ChildOutput.feed(p, stdin);
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new LabException(
            cmd.get(0)
                + " did not finish within "
                + timeout.toSeconds()
                + " s ("
                + what(cmd)
                + ")");
      }
      Result r = new Result(List.copyOf(cmd), p.exitValue(), output.stdout(10), output.stderr(10));
      log.block(r.stdout() + r.stderr());
      if (!r.ok()) {
        log.line("(exit " + r.exitCode() + ")");
      }
      return r;
    } catch (InterruptedException e) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LabException("interrupted while running " + cmd.get(0));
    } catch (ExecutionException | TimeoutException e) {
      throw new LabException("cannot read the output of " + cmd.get(0) + ": " + e.getMessage());
    }
  }

  private static String what(List<String> cmd) {
    List<String> shown = new ArrayList<>(cmd.subList(0, Math.min(cmd.size(), 6)));
    return String.join(" ", shown) + (cmd.size() > 6 ? " ..." : "");
  }
}

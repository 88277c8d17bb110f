package lockstep.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
  private final Set<Process> running = ConcurrentHashMap.newKeySet();
  private volatile String cancelled;

  Commands(LabLog log) {
    this.log = log;
  }

  /**
   * From now on every program this runs is refused, and the ones running now end (their process
   * trees SIGTERM, then SIGKILL after {@code grace}): a Ctrl-C stops the phase in flight, whichever
   * it is, and the thread that waited on it gets a {@link LabInterruptedException}.
   */
  void cancel(String why, Duration grace) {
    cancelled = why;
    List<ProcessHandle> all = new ArrayList<>();
    for (Process p : running) {
      p.descendants().forEach(all::add);
      all.add(p.toHandle());
    }
    all.forEach(ProcessHandle::destroy);
    long end = System.nanoTime() + grace.toNanos();
    for (ProcessHandle h : all) {
      long left = Math.max(0, end - System.nanoTime());
      try {
        h.onExit().get(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException e) {
        // killed below
      }
    }
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  /** Whether {@link #cancel} was called. */
  boolean cancelled() {
    return cancelled != null;
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
    if (cancelled != null) {
      throw new LabInterruptedException(cancelled);
    }
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
    running.add(p);
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
      if (cancelled != null) {
        throw new LabInterruptedException(cancelled);
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
    } finally {
      running.remove(p);
    }
  }

  /**
   * Runs {@code cmd} to its end with its output on {@code out} and {@code err} (this terminal's own
   * when {@code out} is one, so that a live progress line works), not captured, with no time bound;
   * its exit code. {@link #cancel} ends it like any other.
   */
  int stream(List<String> cmd, PrintStream out, PrintStream err) {
    if (cancelled != null) {
      throw new LabInterruptedException(cancelled);
    }
    log.line("$ " + String.join(" ", cmd));
    boolean terminal = out == System.out && System.console() != null;
    Process p;
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT);
      p = (terminal ? pb.inheritIO() : pb).start();
    } catch (IOException e) {
      throw new LabException("cannot run " + cmd.get(0) + ": " + e.getMessage());
    }
    running.add(p);
    try {
      Thread copyOut = terminal ? null : StreamCopy.start(p.getInputStream(), out);
      Thread copyErr = terminal ? null : StreamCopy.start(p.getErrorStream(), err);
      int code = p.waitFor();
      if (copyOut != null) {
        copyOut.join();
        copyErr.join();
      }
      log.line("(exit " + code + ")");
      return code;
    } catch (InterruptedException e) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LabException("interrupted while running " + cmd.get(0));
    } finally {
      running.remove(p);
    }
  }

  private static String what(List<String> cmd) {
    List<String> shown = new ArrayList<>(cmd.subList(0, Math.min(cmd.size(), 6)));
    return String.join(" ", shown) + (cmd.size() > 6 ? " ..." : "");
  }
}

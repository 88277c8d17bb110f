package lockstep.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The lab's long-running processes (QEMUs, the storage daemon): found by pid, checked, ended. */
final class LabProcesses {
  private LabProcesses() {}

  /** The pid a daemonized QEMU wrote, within a bound (it writes it once it is set up). */
  static long readPidFile(Path pidFile, Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        String s = Files.readString(pidFile).strip();
        if (!s.isEmpty()) {
          return Long.parseLong(s);
        }
      } catch (IOException | NumberFormatException e) {
        // not written yet
      }
      if (System.nanoTime() > end) {
        throw new LabException("no pid in " + pidFile + " within " + timeout.toSeconds() + " s");
      }
      sleepMillis(100);
    }
  }

  /**
   * The live process with this pid if it is the lab's: its command line names a file under the
   * lab's directory (a pid reused by another program is left alone).
   */
  static Optional<ProcessHandle> ours(long pid, Path labDir) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (h.isEmpty()) {
      return h;
    }
    try {
      String cmdline =
          new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
      return cmdline.contains(labDir.toString()) ? h : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Ends a lab process: QMP quit when a monitor socket answers (QEMU exits cleanly), else SIGTERM;
   * SIGKILL if it is still there after the bound. Returns whether it is gone.
   */
  static boolean stop(ProcessHandle p, Path qmpSocket, Duration bound) {
    boolean asked = false;
    if (qmpSocket != null && Files.exists(qmpSocket)) {
      try (Qmp q = Qmp.connect(qmpSocket, Duration.ofSeconds(3))) {
        q.execute("quit", Map.of(), Duration.ofSeconds(3));
        asked = true;
      } catch (LabException e) {
        // closed while answering is normal for quit; otherwise fall back to a signal
        asked = e.getMessage().contains("closed by QEMU");
      }
    }
    if (!asked) {
      p.destroy();
    }
    if (waitGone(p, bound)) {
      return true;
    }
    p.destroyForcibly();
    return waitGone(p, Duration.ofSeconds(10));
  }

  static boolean waitGone(ProcessHandle p, Duration bound) {
    try {
      p.onExit().get(bound.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return !p.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !p.isAlive();
    } catch (ExecutionException e) {
      return !p.isAlive();
    }
  }

  static void sleepMillis(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LabException("interrupted");
    }
  }
}

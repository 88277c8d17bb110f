package lockstep.agent.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The worker-process memory guard: before a fleet of worker JVMs is started, the first worker's
 * resident size (VmRSS of /proc/PID/status, measured once it is ready) times the number of workers
 * must stay within a share of the node's memory (MemTotal of /proc/meminfo), default {@value
 * #DEFAULT_PERCENT}% and raised with the agent's {@value #PERCENT_ENV} environment variable.
 */
final class WorkerMemory {
  static final String PERCENT_ENV = "LOCKSTEP_WORKER_MEMORY_PERCENT";
  static final int DEFAULT_PERCENT = 50;

  private WorkerMemory() {}

  /**
   * Throws {@link ResourceLimitException} when {@code processes} workers of this one's size would
   * not fit.
   */
  static void check(long firstPid, int processes, String field) {
    check(Path.of("/"), firstPid, processes, field, percent());
  }

  static void check(Path base, long firstPid, int processes, String field, int percent) {
    Optional<Long> rss = kib(base.resolve("proc/" + firstPid + "/status"), "VmRSS:");
    Optional<Long> total = kib(base.resolve("proc/meminfo"), "MemTotal:");
    if (rss.isEmpty() || total.isEmpty()) {
      return; // not Linux /proc: nothing to measure against
    }
    long need = rss.get() * processes;
    long allowed = total.get() * percent / 100;
    if (need > allowed) {
      throw new ResourceLimitException(
          String.format(
              "%s: %d worker processes x %d MiB measured (VmRSS of the first) = %d MiB, above %d%%"
                  + " of this node's memory (%d of %d MiB); lower %s, or raise the share with %s in"
                  + " the agent's environment (now %d)",
              field,
              processes,
              rss.get() / 1024,
              need / 1024,
              percent,
              allowed / 1024,
              total.get() / 1024,
              field,
              PERCENT_ENV,
              percent));
    }
  }

  private static int percent() {
    String v = System.getenv(PERCENT_ENV);
    if (v == null || v.isBlank()) {
      return DEFAULT_PERCENT;
    }
    try {
      int p = Integer.parseInt(v.trim());
      return p >= 1 && p <= 100 ? p : DEFAULT_PERCENT;
    } catch (NumberFormatException e) {
      return DEFAULT_PERCENT;
    }
  }

  private static Optional<Long> kib(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          String[] parts = line.substring(key.length()).trim().split("\\s+");
          return Optional.of(Long.parseLong(parts[0]));
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}

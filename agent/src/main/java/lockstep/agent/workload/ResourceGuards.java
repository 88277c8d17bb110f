package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.process.ResourceLimitException;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;

/**
 * Limits an agent holds every workload to, checked at Prepare before anything is created or
 * started; a refusal ({@link ResourceLimitException}, RESOURCE_EXHAUSTED) names the field, the
 * limit, and the environment variable of the agent that raises it. (The worker-memory and
 * worker-start guards need a started worker: {@link WorkerMemory}, {@link WorkerStartGuard}.)
 *
 * @param maxFiles files one run may create on a node (lock-files processes x files, metadata
 *     threads x files)
 * @param maxDurationMillis longest timed workload (ping-pong duration + 2 x warm-up, hot-lock
 *     duration)
 * @param headroomBytes free space that must be left after a write or read file of size bytes is
 *     laid out
 */
public record ResourceGuards(long maxFiles, long maxDurationMillis, long headroomBytes) {
  static final String MAX_FILES_ENV = "LOCKSTEP_MAX_FILES";
  static final String MAX_DURATION_ENV = "LOCKSTEP_MAX_DURATION_SECONDS";
  static final String HEADROOM_ENV = "LOCKSTEP_FREE_SPACE_HEADROOM_MIB";
  static final long DEFAULT_MAX_FILES = 2_000_000;
  static final long DEFAULT_MAX_DURATION_SECONDS = 3_600;
  static final long DEFAULT_HEADROOM_MIB = 256;
  private static final long MIB = 1 << 20;

  /**
   * The limits from the agent's environment, defaults where a variable is unset or not a positive
   * number.
   */
  public static ResourceGuards fromEnvironment() {
    return new ResourceGuards(
        positive(MAX_FILES_ENV, DEFAULT_MAX_FILES),
        positive(MAX_DURATION_ENV, DEFAULT_MAX_DURATION_SECONDS) * 1000,
        positive(HEADROOM_ENV, DEFAULT_HEADROOM_MIB) * MIB);
  }

  private static long positive(String env, long dflt) {
    String v = System.getenv(env);
    try {
      long n = v == null ? dflt : Long.parseLong(v.trim());
      return n > 0 ? n : dflt;
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  /**
   * Throws {@link ResourceLimitException} naming the first limit {@code spec} would pass under
   * {@code root}.
   */
  public void check(WorkloadSpec spec, Path root) {
    WorkloadKind<?> kind = WorkloadKind.of(spec);
    long files = kind.filesCreated(spec);
    if (files > maxFiles) {
      throw aboveLimit(
          MAX_FILES_ENV,
          "%s: %d files, above this agent's limit of %d per run; lower them",
          kind.filesCreatedFrom(),
          files,
          maxFiles);
    }
    long durationMillis = kind.timedMillis(spec);
    if (durationMillis > maxDurationMillis) {
      throw aboveLimit(
          MAX_DURATION_ENV,
          "workload.duration: %d s%s, above this agent's limit of %d s; shorten it",
          durationMillis / 1000,
          kind.timedNote() == null ? "" : " (" + kind.timedNote() + ")",
          maxDurationMillis / 1000);
    }
    long bytes = kind.bytesToLayOut(spec);
    if (bytes > 0) {
      long free = usableBytes(root);
      if (free >= 0 && bytes > free - headroomBytes) {
        throw new ResourceLimitException(
            String.format(
                "workload.size: %d MiB to lay out, but %d MiB are free under %s and %d MiB must"
                    + " stay free; lower workload.size, free space, or lower the headroom with %s"
                    + " in the agent's environment",
                bytes / MIB, free / MIB, root, headroomBytes / MIB, HEADROOM_ENV));
      }
    }
  }

  /** A refusal ({@code format} of {@code args}) that says how to raise the limit, {@code env}. */
  private static ResourceLimitException aboveLimit(String env, String format, Object... args) {
    return new ResourceLimitException(
        String.format(format, args)
            + ", or raise the limit with "
            + env
            + " in the agent's environment");
  }

  /**
   * statvfs f_bavail x f_frsize of the root's file system (what an unprivileged writer may use); -1
   * when unknown.
   */
  static long usableBytes(Path root) {
    try {
      return Files.getFileStore(root).getUsableSpace();
    } catch (IOException e) {
      return -1;
    }
  }
}

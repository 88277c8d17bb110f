package lockstep.agent.fs;

/**
 * How many descriptors a process that holds {@code files} open needs, and the one error for a hard
 * RLIMIT_NOFILE below that: checked by the agent at prepare and by each worker process.
 */
public final class OpenFileLimit {
  /** Descriptors a process needs beside its files: the JVM's jars, pipes, sockets, logs. */
  public static final long HEADROOM = 64;

  private OpenFileLimit() {}

  public static long needed(long files) {
    return files + HEADROOM;
  }

  /** EMFILE naming both numbers, or null when the hard limit allows {@code files}. */
  public static PosixException shortage(long files, String path, long[] softAndHard) {
    long needed = needed(files);
    if (softAndHard[1] < 0 || softAndHard[1] >= needed) {
      return null;
    }
    return new PosixException(
        "setrlimit(RLIMIT_NOFILE)",
        path,
        24,
        "EMFILE",
        "each process needs "
            + needed
            + " open files ("
            + files
            + " files + "
            + HEADROOM
            + ") but the hard limit is "
            + softAndHard[1]
            + " (soft "
            + softAndHard[0]
            + ")");
  }
}

package lockstep.common;

import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.LockKind;

/**
 * The checks that {@link WorkloadKind}s' rules are made of; each throws {@link
 * InvalidWorkloadException} naming the field as a scenario writes it.
 */
final class WorkloadRules {
  private WorkloadRules() {}

  static void blocks(long size, int block, boolean direct, int threads) {
    if (size == 0) {
      throw new InvalidWorkloadException("size", "must be greater than 0");
    }
    if (size < 0 || size > 1L << 42) {
      throw new InvalidWorkloadException(
          "size", Long.toUnsignedString(size) + " bytes is above the limit of 4 TiB");
    }
    if (block < 512 || block > 64 << 20) {
      throw new InvalidWorkloadException(
          "block-size", Integer.toUnsignedString(block) + " bytes is outside 512 B .. 64 MiB");
    }
    if (direct && (block % WorkloadValidator.DIRECT_ALIGNMENT != 0 || size % block != 0)) {
      throw new InvalidWorkloadException(
          "o-direct", "needs block-size a multiple of 4 KiB and size a multiple of block-size");
    }
    threads(threads);
    long blockCount = (size + block - 1) / block;
    if (threads > blockCount) {
      throw new InvalidWorkloadException(
          "threads",
          threads + " threads for " + blockCount + " block(s): each thread needs at least one");
    }
  }

  /** Threads of the agent, or of each worker process: 0 (one) .. 256. */
  static void threads(int threads) {
    range("threads", threads, 0, 256);
  }

  /** Worker processes of a node that share one file (each a JVM). */
  static void processes(int processes) {
    range("processes", processes, 1, 256);
  }

  static void pattern(AccessPattern p) {
    known("pattern", p, "must be sequential or random");
  }

  /** An enum value this version of the proto knows (a newer client may send one it does not). */
  static void known(String field, Enum<?> value, String problem) {
    if ("UNRECOGNIZED".equals(value.name())) {
      throw new InvalidWorkloadException(field, problem);
    }
  }

  static void lockKind(LockKind kind, boolean flockAllowed) {
    if (kind == LockKind.LOCK_KIND_UNSPECIFIED || kind == LockKind.UNRECOGNIZED) {
      throw new InvalidWorkloadException(
          "lock", flockAllowed ? "must be one of fcntl, flock, ofd" : "must be fcntl or ofd");
    }
    if (!flockAllowed && kind == LockKind.LOCK_KIND_FLOCK) {
      throw new InvalidWorkloadException(
          "lock",
          "flock locks whole files only; this workload locks byte ranges (use fcntl or ofd)");
    }
  }

  /** A template without {node}: the one file all nodes share. */
  static void sharedFile(String field, String template) {
    if (template.contains("{node}")) {
      throw new InvalidWorkloadException(
          field,
          "contains {node}, but every node must use the same file"
              + " (each agent's root points at the same shared directory)");
    }
  }

  static void duration(String field, long millis) {
    if (millis < 100 || millis > 24L * 3600 * 1000) {
      throw new InvalidWorkloadException(
          field, Long.toUnsignedString(millis) + " ms is outside 100 ms .. 24 h");
    }
  }

  /** A uint64 of {@code unit} at most {@code max} (written {@code maxText}). */
  static void atMost(String field, long value, long max, String unit, String maxText) {
    if (value < 0 || value > max) {
      throw new InvalidWorkloadException(
          field, Long.toUnsignedString(value) + " " + unit + " is above " + maxText);
    }
  }

  /** uint32 fields arrive as int: negative means above 2^31. */
  static void range(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidWorkloadException(
          field, Integer.toUnsignedString(value) + " is outside " + min + " .. " + max);
    }
  }
}

package lockstep.common;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.FileClose;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.LockRelease;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;

/**
 * Every rule a workload spec must meet before anything is created, in one place: the coordinator
 * checks a scenario with it (naming the YAML field) before any agent is asked, and each agent
 * checks every Prepare with it (a client other than Lockstep's CLI may send anything). Fields are
 * named as in a scenario ({@code block-size}, {@code processes}). What depends on the node (its
 * root, limits, free space) is checked by the agent at prepare.
 */
public final class WorkloadValidator {
  public static final long MAX_IO_SIZE = 1L << 42;
  public static final int MIN_BLOCK = 512;
  public static final int MAX_BLOCK = 64 << 20;
  public static final int DIRECT_ALIGNMENT = 4096;
  public static final int MAX_THREADS = 256;
  public static final int MAX_LOCK_FILES_PROCESSES = 1024;
  public static final int MAX_LOCK_FILES = 1_000_000;
  public static final int MAX_PROCESSES = 256;
  public static final long MIN_DURATION_MILLIS = 100;
  public static final long MAX_DURATION_MILLIS = 24L * 3600 * 1000;
  public static final long MAX_WARMUP_MILLIS = 10L * 60 * 1000;
  public static final long MAX_HOLD_MICROS = 10_000_000;
  public static final int MAX_SLOTS = 1_000_000;
  public static final int MAX_METADATA_FILES = 10_000_000;
  public static final int MAX_DEPTH = 64;

  private WorkloadValidator() {}

  /** Workloads done by worker processes, whose per-operation instrumentation can be turned off. */
  private static final Set<WorkloadSpec.KindCase> WORKER_PROCESS_KINDS =
      EnumSet.of(
          WorkloadSpec.KindCase.LOCK_FILES,
          WorkloadSpec.KindCase.PING_PONG,
          WorkloadSpec.KindCase.HOT_LOCK);

  /** Throws {@link InvalidWorkloadException} naming the first field that breaks a rule. */
  public static void validate(WorkloadSpec spec) {
    switch (spec.getKindCase()) {
      case WRITE -> write(spec.getWrite());
      case READ -> read(spec.getRead());
      case LOCK_FILES -> lockFiles(spec.getLockFiles());
      case PING_PONG -> pingPong(spec.getPingPong());
      case HOT_LOCK -> hotLock(spec.getHotLock());
      case METADATA -> metadata(spec.getMetadata());
      case KIND_NOT_SET -> throw new InvalidWorkloadException("type", "no workload given");
    }
    if (spec.getInstrumentationOff() && !WORKER_PROCESS_KINDS.contains(spec.getKindCase())) {
      throw new InvalidWorkloadException(
          "instrumentation",
          "can be turned off for the lock workloads (lock-files,"
              + " ping-pong, hot-lock) only, not for "
              + spec.getKindCase().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
  }

  /**
   * The ping-pong ring when {@code participants} processes take part (nodes x processes): slots 0
   * means participants + 1; fewer than that deadlocks. Returns the slots to use.
   */
  public static int ringSlots(PingPongWorkload spec, int nodes) {
    int participants = Math.max(1, nodes) * spec.getProcesses();
    int slots = spec.getSlots() == 0 ? participants + 1 : spec.getSlots();
    if (slots < participants + 1) {
      throw new InvalidWorkloadException(
          "slots",
          slots
              + " slots for "
              + participants
              + " participants ("
              + Math.max(1, nodes)
              + " node(s) x "
              + spec.getProcesses()
              + " process(es)); the ring needs at least "
              + (participants + 1)
              + " or it deadlocks");
    }
    return slots;
  }

  private static void write(WriteWorkload w) {
    blocks(w.getSizeBytes(), w.getBlockSizeBytes(), w.getODirect(), w.getThreads());
    pattern(w.getPattern());
  }

  private static void read(ReadWorkload r) {
    blocks(r.getSizeBytes(), r.getBlockSizeBytes(), r.getODirect(), r.getThreads());
    pattern(r.getPattern());
  }

  private static void blocks(long size, int block, boolean direct, int threads) {
    if (size == 0) {
      throw new InvalidWorkloadException("size", "must be greater than 0");
    }
    if (size < 0 || size > MAX_IO_SIZE) {
      throw new InvalidWorkloadException(
          "size", Long.toUnsignedString(size) + " bytes is above the limit of 4 TiB");
    }
    if (block < MIN_BLOCK || block > MAX_BLOCK) {
      throw new InvalidWorkloadException(
          "block-size", Integer.toUnsignedString(block) + " bytes is outside 512 B .. 64 MiB");
    }
    if (direct && (block % DIRECT_ALIGNMENT != 0 || size % block != 0)) {
      throw new InvalidWorkloadException(
          "o-direct", "needs block-size a multiple of 4 KiB and size a multiple of block-size");
    }
    range("threads", threads, 0, MAX_THREADS);
    long blockCount = (size + block - 1) / block;
    if (threads > blockCount) {
      throw new InvalidWorkloadException(
          "threads",
          threads + " threads for " + blockCount + " block(s): each thread needs at least one");
    }
  }

  private static void pattern(AccessPattern p) {
    if (p == AccessPattern.UNRECOGNIZED) {
      throw new InvalidWorkloadException("pattern", "must be sequential or random");
    }
  }

  private static void lockFiles(LockFilesWorkload l) {
    range("processes", l.getProcesses(), 1, MAX_LOCK_FILES_PROCESSES);
    range("files", l.getFiles(), 1, MAX_LOCK_FILES);
    lockKind(l.getLock(), true);
    if (l.getRelease() == LockRelease.UNRECOGNIZED) {
      throw new InvalidWorkloadException("release", "must be hold or unlock-each");
    }
    if (l.getClose() == FileClose.UNRECOGNIZED) {
      throw new InvalidWorkloadException("close", "must be end or each");
    }
  }

  private static void pingPong(PingPongWorkload p) {
    sharedFile("file", p.getFile());
    range("processes", p.getProcesses(), 1, MAX_PROCESSES);
    lockKind(p.getLock(), false);
    if (p.getIo() == PingPongIo.UNRECOGNIZED) {
      throw new InvalidWorkloadException("io", "must be none, read, write or read-write");
    }
    duration("duration", p.getDurationMillis());
    if (p.getWarmupMillis() < 0 || p.getWarmupMillis() > MAX_WARMUP_MILLIS) {
      throw new InvalidWorkloadException(
          "warmup", Long.toUnsignedString(p.getWarmupMillis()) + " ms is above 10 m");
    }
    range("slots", p.getSlots(), 0, MAX_SLOTS);
  }

  private static void hotLock(HotLockWorkload h) {
    sharedFile("file", h.getFile());
    range("processes", h.getProcesses(), 1, MAX_PROCESSES);
    range("threads", h.getThreads(), 0, MAX_THREADS);
    lockKind(h.getLock(), true);
    if (h.getLock() == LockKind.LOCK_KIND_FCNTL && h.getThreads() > 1) {
      throw new InvalidWorkloadException(
          "threads",
          "fcntl locks belong to the process, so threads of one process do not"
              + " contend; use processes, or lock: ofd or flock");
    }
    duration("duration", h.getDurationMillis());
    if (h.getHoldMicros() < 0 || h.getHoldMicros() > MAX_HOLD_MICROS) {
      throw new InvalidWorkloadException(
          "hold", Long.toUnsignedString(h.getHoldMicros()) + " us is above 10 s");
    }
  }

  private static void metadata(MetadataWorkload m) {
    range("files", m.getFiles(), 1, MAX_METADATA_FILES);
    range("depth", m.getDepth(), 0, MAX_DEPTH);
    range("threads", m.getThreads(), 0, MAX_THREADS);
    if (m.getOpsCount() == 0) {
      throw new InvalidWorkloadException(
          "ops", "is empty (choose from create, stat, rename, unlink)");
    }
    java.util.EnumSet<MetadataOp> seen = java.util.EnumSet.noneOf(MetadataOp.class);
    for (MetadataOp op : m.getOpsList()) {
      if (op == MetadataOp.METADATA_OP_UNSPECIFIED || op == MetadataOp.UNRECOGNIZED) {
        throw new InvalidWorkloadException("ops", "must name create, stat, rename or unlink");
      }
      if (!seen.add(op)) {
        throw new InvalidWorkloadException(
            "ops",
            "'"
                + op.name().substring("METADATA_OP_".length()).toLowerCase(Locale.ROOT)
                + "' is listed twice");
      }
    }
  }

  private static void lockKind(LockKind kind, boolean flockAllowed) {
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
  private static void sharedFile(String field, String template) {
    if (template.contains("{node}")) {
      throw new InvalidWorkloadException(
          field,
          "contains {node}, but every node must use the same file"
              + " (each agent's root points at the same shared directory)");
    }
  }

  private static void duration(String field, long millis) {
    if (millis < MIN_DURATION_MILLIS || millis > MAX_DURATION_MILLIS) {
      throw new InvalidWorkloadException(
          field, Long.toUnsignedString(millis) + " ms is outside 100 ms .. 24 h");
    }
  }

  /** uint32 fields arrive as int: negative means above 2^31. */
  private static void range(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidWorkloadException(
          field, Integer.toUnsignedString(value) + " is outside " + min + " .. " + max);
    }
  }
}

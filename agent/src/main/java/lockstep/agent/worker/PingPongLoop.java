package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.ScratchDir;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.HdrHistogram.Histogram;

/**
 * One participant of ctdb's ping_pong: the shared file is opened O_CREAT|O_RDWR and sized to slots
 * + 1 bytes at set-up. At the instant it locks byte 0, then forever: lock byte i+1 (F_SETLKW,
 * F_WRLCK, length 1), optionally pread byte i (and note the increment since its own last visit) and
 * pwrite it plus one, unlock byte i, move to i+1. As in ping_pong one iteration counts two lock
 * operations (the lock and the unlock), so locks/s is 2 x iterations/s.
 *
 * <p>Timing: the ring runs {@code warmup} before and after the measured window without counting, so
 * while the window lasts every participant (on every node) is in the ring. Then, between two of my
 * visits to a byte, every other participant visited it exactly once (no one can overtake in the
 * ring), so with read-write the increment I see must equal the number of participants; any other
 * increment whose previous visit lies inside the window is a coherence error (ping_pong prints
 * "data increment = N" and leaves the check to the reader).
 */
public final class PingPongLoop extends CountingLoop {
  // Enough iterations for the JIT to compile the loop, C2's included (its tiers compile a loop
  // after ~100,000 back edges, C1 with a tenth of its thresholds after ~6,000), and a bound for a
  // slow node.
  static final long WARM_UP_ITERATIONS = 100_000;
  static final long WARM_UP_NANOS = 2_000_000_000L;

  private final Path file;
  private final PingPongWorkload spec;
  private final int slots;
  private final int participants;
  private final int fd;
  private final AlignedBuffer buf;
  private long warmUpIterations;

  /**
   * Opens and sizes the shared file; throws PosixException if it cannot. {@code instrumented}: lock
   * and unlock times into the latency histogram, the count for progress samples.
   */
  public PingPongLoop(
      Path file,
      PingPongWorkload spec,
      int slots,
      int participants,
      Path root,
      boolean instrumented) {
    super(root, instrumented);
    this.file = file;
    this.spec = spec;
    this.slots = slots;
    this.participants = participants;
    try (RootDir rootDir = RootDir.open(root)) {
      // Made (or found: another node's) by the agent at prepare; a link or a hard-linked file is
      // refused.
      this.fd = rootDir.openRegular(root.relativize(file), Posix.O_RDWR);
    }
    if (posix.fstat(fd, file.toString()).size() < slots + 1L) {
      posix.ftruncate(fd, slots + 1L, file.toString()); // grow only: never cut a file short
    }
    this.buf = posix.allocateAligned(64, 64);
  }

  /**
   * Runs the ring alone on a scratch file of the worker's own on tmpfs (not counted, removed
   * again), through the same method as the run, so the JIT has compiled the loop and its native
   * calls before the instant. On a one-CPU emulated guest a fresh worker's compiler otherwise held
   * the CPU for seconds after ready, inside the measured window (lab GFS2, limit off, 1 s ring
   * warm-up: Lockstep / ping_pong 0.65 without this, 0.74-0.76 with it). Bounded by {@link
   * #WARM_UP_ITERATIONS} and {@link #WARM_UP_NANOS}; no tmpfs, no warm-up (the ring's own warm-up
   * still runs).
   */
  @Override
  public void warmUp() {
    ScratchDir scratch = ScratchDir.onTmpfs("lockstep-warmup-ping-pong");
    if (scratch == null) {
      return;
    }
    try (scratch) {
      String name = "ring";
      int scratchFd = scratch.dir().create(name, Posix.O_RDWR, 0600);
      try {
        String path = scratch.dir().pathOf(name);
        posix.ftruncate(scratchFd, slots + 1L, path);
        WorkloadResult warm =
            ring(scratchFd, path, WallClock.nowNanos(), 0, WARM_UP_NANOS, WARM_UP_ITERATIONS);
        warmUpIterations = warm.getOps() / 2;
        if (warm.hasError()) {
          throw WorkloadErrors.asException(warm.getError(), path);
        }
      } finally {
        posix.closeQuietly(scratchFd);
        progress.set(0);
      }
    }
  }

  /** The ring iterations the last {@link #warmUp} ran (for tests). */
  long warmUpIterations() {
    return warmUpIterations;
  }

  @Override
  public WorkloadResult run(long startAtUnixNanos) {
    return ring(
        fd,
        file.toString(),
        startAtUnixNanos,
        spec.getWarmupMillis() * 1_000_000L,
        spec.getDurationMillis() * 1_000_000L,
        Long.MAX_VALUE);
  }

  private WorkloadResult ring(
      int fd, String path, long startAtUnixNanos, long warmupNanos, long durationNanos, long most) {
    // Everything the loop needs is made before the wait: what runs after the instant is the loop
    // itself (a class loaded or an object allocated there shows as start skew on a slow node).
    WorkloadResult.Builder out = WorkloadResult.newBuilder();
    Histogram latency = LatencyHistograms.forRecording();
    LockMode mode = LockMode.of(spec.getLock(), false, spec.getTryLock());
    boolean reads =
        spec.getIo() == PingPongIo.PING_PONG_IO_READ
            || spec.getIo() == PingPongIo.PING_PONG_IO_READ_WRITE;
    boolean writes =
        spec.getIo() == PingPongIo.PING_PONG_IO_WRITE
            || spec.getIo() == PingPongIo.PING_PONG_IO_READ_WRITE;
    boolean check = reads && writes;
    int expected = participants & 0xff;
    long measureStart = startAtUnixNanos + warmupNanos;
    long measureEnd = measureStart + durationNanos;
    long stopAt = measureEnd + warmupNanos;
    byte[] seen = new byte[slots];
    long[] lastVisit = new long[slots];
    long counted = 0;
    long errors = 0;
    long checks = 0;
    long retries = 0;
    long first = 0;
    long last = 0;
    long iterations = 0;
    int i = 0;
    boolean holding = false;
    if (!WallClockWait.until(startAtUnixNanos, isStopped)) {
      return out.build();
    }
    // Wall instants from the monotonic clock: one wall clock read, then nanoTime deltas. The
    // warm-up ring's first lock is the worker's lateness at the instant, though not counted.
    long wall0 = WallClock.nowNanos();
    long mono0 = System.nanoTime();
    out.setStartedUnixNanos(wall0);
    // a try-lock ring whose neighbour never lets go (its node died, its locks stand) ends at the
    // run's end, as a ring that turns does; a blocking one waits in the kernel regardless
    long stopAtMono = mono0 + (stopAt - wall0);
    BooleanSupplier overOrStopped =
        () -> isStopped.getAsBoolean() || System.nanoTime() - stopAtMono >= 0;
    try {
      long r0;
      try {
        r0 = locks.acquire(fd, mode, 0, 1, path, overOrStopped);
      } finally {
        WallClockWait.firstOpDone();
      }
      if (r0 < 0) {
        return out.build();
      }
      holding = true;
      // Clock reads are part of the cost per lock (tens of ns each on a VM): the time after
      // one iteration's unlock is the next one's start, and without I/O the time after the
      // lock is also the time before the unlock.
      long t3 = System.nanoTime();
      while (!stopped && iterations++ < most) {
        int next = (i + 1) % slots;
        long t0 = t3;
        long r = locks.acquire(fd, mode, next, 1, path, overOrStopped);
        if (r < 0) {
          break;
        }
        long t1 = System.nanoTime();
        long now = wall0 + (t1 - mono0);
        // Both slots are held here: i (since the last iteration) and next.
        if (reads) {
          posix.preadFully(fd, buf, 1, i, path);
          byte c = buf.getByte(0);
          int incr = (c - seen[i]) & 0xff;
          seen[i] = c;
          if (check && lastVisit[i] >= measureStart && now < measureEnd) {
            checks++;
            if (incr != expected) {
              errors++;
            }
          }
        }
        if (writes) {
          buf.putByte(0, (byte) (seen[i] + 1));
          posix.pwriteFully(fd, buf, 1, i, path);
        }
        long t2 = reads || writes ? System.nanoTime() : t1;
        locks.release(fd, mode, i, 1, path);
        t3 = System.nanoTime();
        lastVisit[i] = now;
        i = next;
        if (now >= measureStart && now < measureEnd) {
          if (first == 0) {
            first = Math.max(measureStart, wall0 + (t0 - mono0));
          }
          last = Math.min(measureEnd, wall0 + (t3 - mono0));
          retries += r;
          counted += 2;
          if (instrumented) {
            latency.recordValue(t1 - t0);
            latency.recordValue(t3 - t2);
            progress.set(counted);
          }
        } else if (now >= stopAt) {
          break;
        }
      }
      locks.release(fd, mode, i, 1, path);
      holding = false;
    } catch (PosixException e) {
      out.setError(WorkloadErrors.of(e, root, "at slot " + i + " after " + counted + " locks"));
      if (holding) {
        try {
          locks.release(fd, mode, i, 1, path);
        } catch (PosixException ignored) {
          // the first error is what matters
        }
      }
    }
    if (first != 0) {
      out.setFirstOpUnixNanos(first).setEndUnixNanos(last);
    }
    return out.setOps(counted)
        .setLockRetries(retries)
        .setCoherenceErrors(errors)
        .setCoherenceChecks(checks)
        .setLatencyHistogram(LatencyHistograms.encode(latency))
        .build();
  }
}

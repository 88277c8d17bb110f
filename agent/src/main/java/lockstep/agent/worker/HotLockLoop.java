package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.HdrHistogram.Histogram;

/**
 * One process of hot-lock: {@code threads} threads, each with its own open file description of the
 * one shared file, take and give back the same whole-file lock until the duration ends. One op is
 * one acquisition; its latency is the time the lock call took (the wait).
 */
public final class HotLockLoop extends CountingLoop {
  private static final long SPIN_HOLD_NANOS = 50_000;

  private final Path file;
  private final HotLockWorkload spec;
  private final int[] fds;
  private final LockMode mode;
  private final ThreadOutcome[] results;
  private final Histogram[] histograms;
  private final Histogram latency = LatencyHistograms.create();
  private volatile long startAt;
  private volatile long endAt;
  private final BooleanSupplier giveUp = () -> stopped || WallClock.nowNanos() >= endAt;
  private final IntConsumer each;
  private final Runnable stopAll = this::stop;

  /** {@code instrumented}: each lock's wait into the latency histogram. */
  public HotLockLoop(Path file, HotLockWorkload spec, Path root, boolean instrumented) {
    super(root, instrumented);
    this.file = file;
    this.spec = spec;
    int threads = Math.max(1, spec.getThreads());
    this.mode = LockMode.of(spec.getLock(), spec.getShared(), spec.getTryLock());
    this.results = new ThreadOutcome[threads];
    this.histograms = new Histogram[threads];
    for (int t = 0; t < threads; t++) {
      histograms[t] = LatencyHistograms.forRecording();
    }
    this.fds = new int[threads];
    Arrays.fill(fds, -1);
    try (RootDir rootDir = RootDir.open(root)) {
      for (int t = 0; t < threads; t++) {
        // One open file description per thread; made (or found) by the agent at prepare.
        fds[t] = rootDir.openRegular(root.relativize(file), Posix.O_RDWR);
      }
    } catch (PosixException e) {
      for (int fd : fds) {
        posix.closeQuietly(fd);
      }
      throw e;
    }
    this.each =
        t -> {
          if (WallClockWait.until(startAt, isStopped)) {
            try {
              results[t] = contend(fds[t], mode, endAt, histograms[t], giveUp);
            } finally {
              WallClockWait.firstOpDone();
            }
          }
        };
  }

  /**
   * @param started when the thread's first attempt began (its lateness at the instant)
   */
  private record ThreadOutcome(
      Histogram latency, long retries, long started, long first, long last, PosixException error) {}

  @Override
  public WorkloadResult run(long startAtUnixNanos) {
    // Everything the threads need was made at construction (histograms, the lambdas and their
    // call sites), and each thread waits for the instant itself: what runs after the start
    // command is two stores and the fan-out.
    startAt = startAtUnixNanos;
    endAt = startAtUnixNanos + spec.getDurationMillis() * 1_000_000L;
    WorkloadResult.Builder out = WorkloadResult.newBuilder();
    if (!Threads.runAll(fds.length, "hot-lock", each, stopAll)) {
      stopped = true;
    }
    long retries = 0;
    RunSpan span = new RunSpan();
    for (ThreadOutcome r : results) {
      if (r == null) {
        // stopped before the instant, or interrupted: a thread that threw has failed runAll
        continue;
      }
      latency.add(r.latency());
      retries += r.retries();
      span.add(r.started(), r.first(), r.last());
      if (r.error() != null && !out.hasError()) {
        out.setError(
            WorkloadErrors.of(r.error(), root, "after " + progress.get() + " acquisitions"));
      }
    }
    span.firstOp().ifPresent(first -> out.setFirstOpUnixNanos(first).setEndUnixNanos(span.end()));
    span.started().ifPresent(out::setStartedUnixNanos);
    return out.setOps(progress.get())
        .setLockRetries(retries)
        .setLatencyHistogram(LatencyHistograms.encode(latency))
        .build();
  }

  private ThreadOutcome contend(
      int fd, LockMode mode, long endAt, Histogram latency, BooleanSupplier giveUp) {
    String path = file.toString();
    long wall0 = WallClock.nowNanos();
    long mono0 = System.nanoTime();
    long holdNanos = spec.getHoldMicros() * 1000L;
    long retries = 0;
    long first = 0;
    long last = 0;
    try {
      while (!stopped) {
        long t0 = System.nanoTime();
        if (wall0 + (t0 - mono0) >= endAt) {
          break;
        }
        long r = locks.acquire(fd, mode, 0, 0, path, giveUp);
        if (first == 0) {
          WallClockWait.firstOpDone();
        }
        if (r < 0) {
          retries += Locks.retriesOfStopped(r); // starved until the end: its attempts still count
          break;
        }
        long t1 = System.nanoTime();
        hold(holdNanos);
        locks.release(fd, mode, 0, 0, path);
        long t2 = System.nanoTime();
        if (wall0 + (t1 - mono0) < endAt) {
          if (first == 0) {
            first = wall0 + (t0 - mono0);
          }
          last = wall0 + (t2 - mono0);
          if (instrumented) {
            latency.recordValue(t1 - t0);
          }
          retries += r;
          progress.add(1);
        }
      }
      return new ThreadOutcome(latency, retries, wall0, first, last, null);
    } catch (PosixException e) {
      return new ThreadOutcome(latency, retries, wall0, first, last, e);
    }
  }

  private static void hold(long nanos) {
    if (nanos <= 0) {
      return;
    }
    if (nanos >= SPIN_HOLD_NANOS) {
      LockSupport.parkNanos(nanos);
      return;
    }
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }
}

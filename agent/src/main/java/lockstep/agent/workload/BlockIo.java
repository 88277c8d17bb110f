package lockstep.agent.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.Threads;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.HdrHistogram.Histogram;

/**
 * Runs pwrite(2) or pread(2) of whole blocks over one open file with several threads (see {@link
 * BlockOrder}); each call is timed into the thread's histogram, merged at the end.
 */
final class BlockIo {
  interface Call {
    long apply(Posix posix, int fd, AlignedBuffer buf, long count, long offset, String path);
  }

  record Outcome(Histogram latency, PosixException error) {}

  /**
   * What a workload does after its blocks, inside the measured time (write: fdatasync, close);
   * returns the first error.
   */
  interface Finish {
    PosixException after(PosixException blockError);
  }

  private final Posix posix = Posix.get();
  private final LongAdder ops = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final List<AlignedBuffer> buffers = new ArrayList<>();
  private volatile boolean stopped;

  /** One aligned buffer per thread, allocated (and touched) before the run. */
  void allocate(int threads, int blockSize, int alignment) {
    for (int t = 0; t < threads; t++) {
      AlignedBuffer b = posix.allocateAligned(blockSize, alignment);
      b.fill((byte) 0);
      buffers.add(b);
    }
  }

  long ops() {
    return ops.sum();
  }

  long bytes() {
    return bytes.sum();
  }

  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  Outcome run(int fd, String path, long size, int blockSize, BlockOrder order, Call call) {
    int threads = buffers.size();
    Histogram[] histograms = new Histogram[threads];
    PosixException[] errors = new PosixException[threads];
    for (int t = 0; t < threads; t++) {
      histograms[t] = LatencyHistograms.create();
    }
    boolean completed =
        Threads.runAll(
            threads,
            "io",
            index -> {
              AlignedBuffer buf = buffers.get(index);
              Histogram h = histograms[index];
              long begin = order.shareStart(index, threads);
              long end = order.shareEnd(index, threads);
              try {
                for (long k = begin; k < end && !stopped; k++) {
                  long offset = order.block(k) * blockSize;
                  long n = Math.min(blockSize, size - offset);
                  long t0 = System.nanoTime();
                  call.apply(posix, fd, buf, n, offset, path);
                  h.recordValue(System.nanoTime() - t0);
                  ops.increment();
                  bytes.add(n);
                  if (k == begin) {
                    WallClockWait.firstOpDone();
                  }
                }
              } catch (PosixException e) {
                errors[index] = e;
                stopped = true;
              } finally {
                WallClockWait.firstOpDone();
              }
            },
            this::stop);
    if (!completed) {
      stopped = true;
    }
    Histogram merged = LatencyHistograms.create();
    PosixException first = null;
    for (int t = 0; t < threads; t++) {
      merged.add(histograms[t]);
      if (first == null && errors[t] != null) {
        first = errors[t];
      }
    }
    return new Outcome(merged, first);
  }

  /**
   * EINVAL from an O_DIRECT call is nearly always alignment or a file system refusing direct I/O.
   */
  static PosixException explainDirect(
      PosixException e, boolean direct, int blockSize, int alignment) {
    if (!direct || !"EINVAL".equals(e.errnoName())) {
      return e;
    }
    return e.describedAs(
        "O_DIRECT refused or misaligned: this file system may not support direct I/O, or needs an"
            + " alignment above block-size "
            + blockSize
            + " / buffer alignment "
            + alignment);
  }

  /**
   * The measured part of the write and read workloads: waits for the instant (aborted if stopped
   * before), does every block in the seeded order, then {@code finish}, and reports ops, bytes,
   * first-op and end instants, the merged latency and the error (O_DIRECT refusals explained).
   */
  WorkloadResult.Builder timed(
      long startAtUnixNanos,
      String opName,
      int fd,
      String path,
      BlockFileWorkload.Blocks blocks,
      Call call,
      Finish finish,
      RootedPaths paths) {
    long size = blocks.sizeBytes();
    int blockSize = blocks.blockSizeBytes();
    WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName);
    BlockOrder order =
        new BlockOrder((size + blockSize - 1) / blockSize, blocks.random(), blocks.seed());
    if (!WallClockWait.until(startAtUnixNanos, this::stopped)) {
      return result.setState(RunState.RUN_STATE_ABORTED);
    }
    long started = WallClock.nowNanos();
    result.setStartedUnixNanos(started).setFirstOpUnixNanos(started);
    if (buffers.size() > 1) {
      // the blocks go to threads of their own: this one is not the first operation's
      WallClockWait.firstOpDone();
    }
    Outcome o = run(fd, path, size, blockSize, order, call);
    PosixException error = finish.after(o.error());
    result
        .setEndUnixNanos(WallClock.nowNanos())
        .setOps(ops())
        .setBytes(bytes())
        .setLatencyHistogram(LatencyHistograms.encode(o.latency()));
    if (error != null) {
      result.setError(
          WorkloadErrors.of(
              explainDirect(error, blocks.direct(), blockSize, BlockFileWorkload.DIRECT_ALIGNMENT),
              paths));
      return result.setState(RunState.RUN_STATE_FAILED);
    }
    return result.setState(stopped() ? RunState.RUN_STATE_ABORTED : RunState.RUN_STATE_SUCCEEDED);
  }
}

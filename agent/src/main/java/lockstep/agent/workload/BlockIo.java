package lockstep.agent.workload;

import lockstep.common.LatencyHistograms;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import lockstep.agent.Threads;
import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import org.HdrHistogram.Histogram;

/**
 * Runs pwrite(2) or pread(2) of whole blocks over one open file with several threads (see
 * {@link BlockOrder}); each call is timed into the thread's histogram, merged at the end.
 */
final class BlockIo {
    interface Call {
        long apply(Posix posix, int fd, AlignedBuffer buf, long count, long offset, String path);
    }

    record Outcome(Histogram latency, PosixException error) {
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
        boolean completed = Threads.runAll(threads, "io", index -> {
            AlignedBuffer buf = buffers.get(index);
            Histogram h = histograms[index];
            long end = order.shareEnd(index, threads);
            try {
                for (long k = order.shareStart(index, threads); k < end && !stopped; k++) {
                    long offset = order.block(k) * blockSize;
                    long n = Math.min(blockSize, size - offset);
                    long t0 = System.nanoTime();
                    call.apply(posix, fd, buf, n, offset, path);
                    h.recordValue(System.nanoTime() - t0);
                    ops.increment();
                    bytes.add(n);
                }
            } catch (PosixException e) {
                errors[index] = e;
                stopped = true;
            }
        }, this::stop);
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

    /** EINVAL from an O_DIRECT call is nearly always alignment or a file system refusing direct I/O. */
    static PosixException explainDirect(PosixException e, boolean direct, int blockSize, int alignment) {
        if (!direct || !"EINVAL".equals(e.errnoName())) {
            return e;
        }
        return new PosixException(e.operation(), e.path(), e.errno(), e.errnoName(),
                "O_DIRECT refused or misaligned: this file system may not support direct I/O, or needs an alignment"
                        + " above block-size " + blockSize + " / buffer alignment " + alignment);
    }
}

package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import lockstep.agent.WallClock;
import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.InvalidWorkloadException;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;
import org.HdrHistogram.Histogram;

/**
 * dd-like sequential write: open(O_WRONLY|O_CREAT|O_TRUNC [|O_DIRECT][|O_SYNC]) at prepare,
 * then write(2) of {@code block-size} zero bytes until {@code size}, then fdatasync(2) if asked,
 * all inside the measured time. One op is one write call of a full block.
 */
public final class WriteFileWorkload implements Workload {
    static final int DIRECT_ALIGNMENT = 4096;
    static final long MAX_SIZE = 1L << 42; // 4 TiB
    static final int MIN_BLOCK = 512;
    static final int MAX_BLOCK = 64 << 20;

    private final WriteWorkload spec;
    private final RootedPaths paths;
    private final Posix posix = Posix.get();
    private final Path file;
    private final CreatedDirs createdDirs;
    private final AtomicLong ops = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private volatile boolean aborted;
    private int fd = -1;
    private boolean opened;
    private AlignedBuffer buffer;

    public WriteFileWorkload(WriteWorkload spec, RootedPaths paths) {
        this.spec = spec;
        this.paths = paths;
        validate(spec);
        this.file = paths.resolve("file", spec.getFile());
        this.createdDirs = new CreatedDirs(paths.root());
    }

    static void validate(WriteWorkload spec) {
        if (spec.getSizeBytes() == 0) {
            throw new InvalidWorkloadException("size", "must be greater than 0");
        }
        if (spec.getSizeBytes() > MAX_SIZE) {
            throw new InvalidWorkloadException("size", spec.getSizeBytes() + " bytes is above the limit of 4 TiB");
        }
        int block = spec.getBlockSizeBytes();
        if (block < MIN_BLOCK || block > MAX_BLOCK) {
            throw new InvalidWorkloadException("block-size", block + " bytes is outside 512 B .. 64 MiB");
        }
        if (spec.getODirect() && (block % DIRECT_ALIGNMENT != 0 || spec.getSizeBytes() % block != 0)) {
            throw new InvalidWorkloadException("o-direct",
                    "needs block-size a multiple of 4 KiB and size a multiple of block-size");
        }
    }

    @Override
    public String opName() {
        return "write";
    }

    @Override
    public void prepare() {
        try {
            createdDirs.createParentsOf(file);
        } catch (IOException e) {
            throw new PosixException("mkdir", file.getParent().toString(), 0, "", e.getMessage());
        }
        int flags = Posix.O_WRONLY | Posix.O_CREAT | Posix.O_TRUNC
                | (spec.getODirect() ? Posix.O_DIRECT : 0) | (spec.getOSync() ? Posix.O_SYNC : 0);
        fd = posix.open(file.toString(), flags, 0644);
        opened = true;
        buffer = posix.allocateAligned(spec.getBlockSizeBytes(), DIRECT_ALIGNMENT);
        buffer.fill((byte) 0);
    }

    @Override
    public List<String> paths() {
        return List.of(paths.relative(file));
    }

    @Override
    public List<Long> workerPids() {
        return List.of();
    }

    @Override
    public long opsSoFar() {
        return ops.get();
    }

    @Override
    public long bytesSoFar() {
        return bytes.get();
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
        WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName());
        Histogram latency = LatencyHistograms.create();
        if (!WallClock.awaitInstant(startAtUnixNanos, () -> aborted)) {
            return result.setState(RunState.RUN_STATE_ABORTED);
        }
        long first = WallClock.nowNanos();
        result.setFirstOpUnixNanos(first);
        String path = file.toString();
        long remaining = spec.getSizeBytes();
        int block = spec.getBlockSizeBytes();
        try {
            while (remaining > 0 && !aborted) {
                long n = Math.min(block, remaining);
                long t0 = System.nanoTime();
                posix.writeFully(fd, buffer, n, path);
                latency.recordValue(System.nanoTime() - t0);
                remaining -= n;
                bytes.addAndGet(n);
                ops.incrementAndGet();
            }
            if (spec.getFdatasync() && !aborted) {
                posix.fdatasync(fd, path);
            }
            posix.close(fd, path);
            fd = -1;
        } catch (PosixException e) {
            result.setError(Errors.of(e, paths));
        }
        result.setEndUnixNanos(WallClock.nowNanos())
                .setOps(ops.get())
                .setBytes(bytes.get())
                .setLatencyHistogram(LatencyHistograms.encode(latency));
        if (aborted) {
            result.setState(RunState.RUN_STATE_ABORTED);
        } else {
            result.setState(result.hasError() ? RunState.RUN_STATE_FAILED : RunState.RUN_STATE_SUCCEEDED);
        }
        return result;
    }

    @Override
    public void abort() {
        aborted = true;
    }

    @Override
    public CleanupReport cleanup() {
        posix.closeQuietly(fd);
        fd = -1;
        long removed = 0;
        List<String> leftovers = new java.util.ArrayList<>();
        try {
            // Only a file this run opened: whatever was in the way before is the user's.
            if (opened && Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(file)) {
                removed++;
            }
        } catch (IOException e) {
            leftovers.add(paths.relative(file) + ": " + e.getMessage());
        }
        leftovers.addAll(createdDirs.removeAll(paths));
        return new CleanupReport(removed, leftovers);
    }
}

package lockstep.agent.workload;

import lockstep.agent.fs.WallClockWait;
import lockstep.common.InvalidWorkloadException;
import lockstep.common.WorkloadValidator;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import java.nio.file.Path;
import java.util.List;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;

/**
 * dd/fio-like write: open(O_WRONLY|O_CREAT|O_EXCL [|O_DIRECT][|O_SYNC]) beneath the root at
 * prepare (a file already at the path is refused, never truncated), then
 * pwrite(2) of {@code block-size} zero bytes at each block's offset until {@code size}
 * (sequential or random order, split over {@code threads}), then fdatasync(2) if asked, all
 * inside the measured time. One op is one pwrite call of a full block.
 */
public final class WriteFileWorkload implements Workload {
    static final int DIRECT_ALIGNMENT = WorkloadValidator.DIRECT_ALIGNMENT;

    private final WriteWorkload spec;
    private final RootedPaths paths;
    private final Posix posix = Posix.get();
    private final Path file;
    private final CreatedDirs createdDirs;
    private final BlockIo io = new BlockIo();
    private final int threads;
    private int fd = -1;
    private FileId created;

    public WriteFileWorkload(WriteWorkload spec, RootedPaths paths) {
        this.spec = spec;
        this.paths = paths;
        this.threads = Math.max(1, spec.getThreads());
        this.file = paths.resolve("file", spec.getFile());
        this.createdDirs = new CreatedDirs(paths);
    }

    @Override
    public String opName() {
        return "write";
    }

    @Override
    public void prepare() {
        int flags = Posix.O_WRONLY | (spec.getODirect() ? Posix.O_DIRECT : 0) | (spec.getOSync() ? Posix.O_SYNC : 0);
        try (Dir parent = createdDirs.createParentsOf(file)) {
            fd = parent.create(file.getFileName().toString(), flags, 0644);
            created = posix.fstat(fd, file.toString());
        } catch (PosixException e) {
            throw BlockIo.explainDirect(e, spec.getODirect(), spec.getBlockSizeBytes(), DIRECT_ALIGNMENT);
        }
        io.allocate(threads, spec.getBlockSizeBytes(), DIRECT_ALIGNMENT);
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
        return io.ops();
    }

    @Override
    public long bytesSoFar() {
        return io.bytes();
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
        WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName());
        if (!WallClockWait.until(startAtUnixNanos, io::stopped)) {
            return result.setState(RunState.RUN_STATE_ABORTED);
        }
        long first = WallClock.nowNanos();
        result.setFirstOpUnixNanos(first);
        String path = file.toString();
        int block = spec.getBlockSizeBytes();
        BlockOrder order = new BlockOrder((spec.getSizeBytes() + block - 1) / block,
                spec.getPattern() == AccessPattern.ACCESS_PATTERN_RANDOM, spec.getSeed());
        BlockIo.Outcome o = io.run(fd, path, spec.getSizeBytes(), block, order, Posix::pwriteFully);
        PosixException error = o.error();
        try {
            if (error == null && spec.getFdatasync() && !io.stopped()) {
                posix.fdatasync(fd, path);
            }
            int closing = fd;
            fd = -1;
            posix.close(closing, path);
        } catch (PosixException e) {
            error = error == null ? e : error;
        }
        if (error != null) {
            result.setError(Errors.of(BlockIo.explainDirect(error, spec.getODirect(), block, DIRECT_ALIGNMENT), paths));
        }
        result.setEndUnixNanos(WallClock.nowNanos())
                .setOps(io.ops())
                .setBytes(io.bytes())
                .setLatencyHistogram(LatencyHistograms.encode(o.latency()));
        if (io.stopped() && error == null) {
            result.setState(RunState.RUN_STATE_ABORTED);
        } else {
            result.setState(result.hasError() ? RunState.RUN_STATE_FAILED : RunState.RUN_STATE_SUCCEEDED);
        }
        return result;
    }

    @Override
    public void abort() {
        io.stop();
    }

    @Override
    public CleanupReport cleanup() {
        posix.closeQuietly(fd);
        fd = -1;
        return CreatedFile.remove(file, created, createdDirs, paths);
    }
}

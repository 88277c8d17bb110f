package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.WallClock;
import lockstep.agent.fs.LockKind;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.workload.LatencyHistograms;
import lockstep.worker.v1.WorkerOutcome;
import org.HdrHistogram.Histogram;

/**
 * Seed 1's program, in one process: create {@code files} files, open each with
 * O_SYNC|O_RDWR|O_CREAT, lock it exclusively and keep it open. One op is one file
 * (open + lock); the locks stay held until {@link #release}.
 */
public final class LockFilesLoop {
    private final Path dir;
    private final String prefix;
    private final LockFilesWorkload spec;
    private final Path root;
    private final Posix posix = Posix.get();
    private final List<Integer> fds = new ArrayList<>();
    private volatile long ops;
    private volatile boolean stopped;

    public LockFilesLoop(Path dir, String prefix, LockFilesWorkload spec, Path root) {
        this.dir = dir;
        this.prefix = prefix;
        this.spec = spec;
        this.root = root;
    }

    public static String fileName(String prefix, int index) {
        return prefix + index;
    }

    public static LockKind kindOf(lockstep.agent.v1.LockKind kind) {
        return switch (kind) {
            case LOCK_KIND_FLOCK -> LockKind.FLOCK;
            case LOCK_KIND_OFD -> LockKind.OFD;
            default -> LockKind.FCNTL;
        };
    }

    public long ops() {
        return ops;
    }

    public void stop() {
        stopped = true;
    }

    public WorkerOutcome run(long startAtUnixNanos) {
        WorkerOutcome.Builder out = WorkerOutcome.newBuilder();
        Histogram latency = LatencyHistograms.create();
        if (!WallClock.awaitInstant(startAtUnixNanos, () -> stopped)) {
            return out.build();
        }
        LockMode mode = LockMode.exclusiveBlocking(kindOf(spec.getLock()));
        int flags = Posix.O_SYNC | Posix.O_RDWR | Posix.O_CREAT;
        out.setFirstOpUnixNanos(WallClock.nowNanos());
        for (int i = 0; i < spec.getFiles() && !stopped; i++) {
            String path = dir.resolve(fileName(prefix, i)).toString();
            try {
                long t0 = System.nanoTime();
                int fd = posix.open(path, flags, 0644);
                fds.add(fd);
                posix.lock(fd, mode, path);
                latency.recordValue(System.nanoTime() - t0);
                ops = ops + 1;
            } catch (PosixException e) {
                out.setError(error(e));
                break;
            }
        }
        return out.setEndUnixNanos(WallClock.nowNanos())
                .setOps(ops)
                .setLatencyHistogram(LatencyHistograms.encode(latency))
                .build();
    }

    private WorkloadError error(PosixException e) {
        String rel = root.relativize(Path.of(e.path())).toString();
        return WorkloadError.newBuilder()
                .setOperation(e.operation())
                .setPath(rel)
                .setErrno(e.errno())
                .setErrnoName(e.errnoName())
                .setMessage(e.operation() + " " + rel + " failed after " + ops + " files: "
                        + e.getMessage().substring(e.getMessage().indexOf(": ") + 2))
                .build();
    }

    /** Closes every file, which drops the locks. */
    public void release() {
        for (int fd : fds) {
            posix.closeQuietly(fd);
        }
        fds.clear();
    }
}

package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.agent.fs.InvalidWorkloadException;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.ProcessResult;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.LockFilesLoop;
import lockstep.worker.v1.WorkerOutcome;
import lockstep.worker.v1.WorkerTask;
import org.HdrHistogram.Histogram;

/**
 * Seed 1 on one node: {@code processes} worker OS processes (fcntl locks belong to a process,
 * so threads would not contend) each running {@link LockFilesLoop}. Workers are started and
 * ready at prepare, so JVM start-up is never inside the measured time; their locks stay held
 * until cleanup.
 */
public final class LockFilesProcesses implements Workload {
    static final int MAX_PROCESSES = 1024;
    static final int MAX_FILES = 1_000_000;
    private static final long READY_TIMEOUT_MILLIS = 120_000;
    private static final long RELEASE_TIMEOUT_MILLIS = 10_000;

    private final LockFilesWorkload spec;
    private final RootedPaths paths;
    private final Path dir;
    private final CreatedDirs createdDirs;
    private final List<WorkerProcess> workers = new ArrayList<>();
    private volatile boolean aborted;

    public LockFilesProcesses(LockFilesWorkload spec, RootedPaths paths) {
        this.spec = spec;
        this.paths = paths;
        validate(spec);
        this.dir = paths.resolve("dir", spec.getDir());
        this.createdDirs = new CreatedDirs(paths.root());
    }

    static void validate(LockFilesWorkload spec) {
        if (spec.getProcesses() < 1 || spec.getProcesses() > MAX_PROCESSES) {
            throw new InvalidWorkloadException("processes", spec.getProcesses() + " is outside 1 .. " + MAX_PROCESSES);
        }
        if (spec.getFiles() < 1 || spec.getFiles() > MAX_FILES) {
            throw new InvalidWorkloadException("files", spec.getFiles() + " is outside 1 .. " + MAX_FILES);
        }
        if (spec.getLock() == LockKind.LOCK_KIND_UNSPECIFIED || spec.getLock() == LockKind.UNRECOGNIZED) {
            throw new InvalidWorkloadException("lock", "must be one of fcntl, flock, ofd");
        }
    }

    static String prefix(int process) {
        return "test-" + process + "-";
    }

    @Override
    public String opName() {
        return "lock";
    }

    @Override
    public void prepare() {
        long needed = spec.getFiles() + 64L;
        long hard = Posix.get().openFileLimits()[1];
        if (hard >= 0 && hard < needed) {
            throw new PosixException("setrlimit(RLIMIT_NOFILE)", dir.toString(), 24, "EMFILE",
                    "each process needs " + needed + " open files (" + spec.getFiles() + " files + 64) but the hard limit is " + hard);
        }
        try {
            createdDirs.create(dir);
        } catch (IOException e) {
            throw new PosixException("mkdir", dir.toString(), 0, "", e.toString());
        }
        try {
            for (int i = 0; i < spec.getProcesses(); i++) {
                workers.add(WorkerProcess.start(WorkerTask.newBuilder()
                        .setIndex(i)
                        .setDir(dir.toString())
                        .setRoot(paths.root().toString())
                        .setFilePrefix(prefix(i))
                        .setLockFiles(spec)
                        .build()));
            }
            for (WorkerProcess w : workers) {
                w.awaitReady(READY_TIMEOUT_MILLIS);
            }
        } catch (IOException e) {
            killAll();
            throw new PosixException("start worker process", dir.toString(), 0, "", e.toString());
        } catch (WorkerProcess.WorkerFailedException e) {
            killAll();
            WorkloadError err = e.error();
            throw new PosixException(err.getOperation(), dir.toString(), err.getErrno(), err.getErrnoName(), err.getMessage());
        }
    }

    @Override
    public List<String> paths() {
        return List.of(paths.relative(dir) + "/test-<process>-<file>");
    }

    @Override
    public List<Long> workerPids() {
        return workers.stream().map(WorkerProcess::pid).toList();
    }

    @Override
    public long opsSoFar() {
        long sum = 0;
        for (WorkerProcess w : workers) {
            sum += w.ops();
        }
        return sum;
    }

    @Override
    public long bytesSoFar() {
        return 0;
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
        WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName());
        for (WorkerProcess w : workers) {
            try {
                w.start(startAtUnixNanos);
            } catch (IOException e) {
                result.setError(Errors.of("start", "could not start worker pid " + w.pid() + ": " + e));
            }
        }
        Histogram latency = LatencyHistograms.create();
        long first = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long ops = 0;
        for (WorkerProcess w : workers) {
            WorkerOutcome o = awaitOutcome(w);
            ProcessResult.Builder pr = ProcessResult.newBuilder().setPid(w.pid()).setOps(o.getOps())
                    .setFirstOpUnixNanos(o.getFirstOpUnixNanos()).setEndUnixNanos(o.getEndUnixNanos());
            if (o.hasError()) {
                pr.setError(o.getError());
                if (!result.hasError()) {
                    result.setError(o.getError());
                }
            }
            result.addProcesses(pr);
            ops += o.getOps();
            if (o.getFirstOpUnixNanos() > 0) {
                first = Math.min(first, o.getFirstOpUnixNanos());
                end = Math.max(end, o.getEndUnixNanos());
            }
            if (!o.getLatencyHistogram().isEmpty()) {
                latency.add(LatencyHistograms.decode(o.getLatencyHistogram()));
            }
        }
        if (first != Long.MAX_VALUE) {
            result.setFirstOpUnixNanos(first).setEndUnixNanos(end);
        }
        result.setOps(ops).setLatencyHistogram(LatencyHistograms.encode(latency));
        if (aborted) {
            return result.setState(RunState.RUN_STATE_ABORTED);
        }
        return result.setState(result.hasError() ? RunState.RUN_STATE_FAILED : RunState.RUN_STATE_SUCCEEDED);
    }

    private WorkerOutcome awaitOutcome(WorkerProcess w) {
        while (true) {
            try {
                return w.outcome().get(200, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (aborted) {
                    w.kill();
                }
            } catch (ExecutionException e) {
                return WorkerOutcome.newBuilder().setError(Errors.of("worker process", e.getCause().toString())).build();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                w.kill();
                return WorkerOutcome.newBuilder().setError(Errors.of("worker process", "interrupted")).build();
            }
        }
    }

    @Override
    public void abort() {
        aborted = true;
        killAll();
    }

    private void killAll() {
        workers.forEach(WorkerProcess::kill);
    }

    @Override
    public CleanupReport cleanup() {
        workers.forEach(w -> w.release(RELEASE_TIMEOUT_MILLIS));
        long removed = 0;
        List<String> leftovers = new ArrayList<>();
        for (int p = 0; p < spec.getProcesses(); p++) {
            for (int i = 0; i < spec.getFiles(); i++) {
                Path f = dir.resolve(LockFilesLoop.fileName(prefix(p), i));
                try {
                    // Only regular files: a directory or link in the way is the user's, not ours.
                    if (Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(f)) {
                        removed++;
                    }
                } catch (IOException e) {
                    leftovers.add(paths.relative(f) + ": " + e);
                }
            }
        }
        leftovers.addAll(createdDirs.removeAll(paths));
        return new CleanupReport(removed, leftovers);
    }
}

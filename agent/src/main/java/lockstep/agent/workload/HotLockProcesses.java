package lockstep.agent.workload;

import lockstep.common.InvalidWorkloadException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.worker.HotLockLoop;
import lockstep.worker.v1.WorkerTask;

/**
 * hot-lock on one node: {@code processes} worker processes x {@code threads} threads, every one
 * taking the same whole-file lock on the one file all nodes share, for {@code duration}.
 * fcntl locks belong to the process, so threads of one process would not contend: with fcntl
 * only one thread per process is allowed.
 */
public final class HotLockProcesses extends FleetWorkload {

    private final HotLockWorkload spec;
    private final RootedPaths paths;
    private final Path file;
    private final CreatedDirs createdDirs;
    private lockstep.agent.fs.FileId created;

    public HotLockProcesses(HotLockWorkload spec, RootedPaths paths) {
        this.spec = spec;
        this.paths = paths;
        this.file = paths.resolve("file", spec.getFile());
        this.createdDirs = new CreatedDirs(paths);
    }

    @Override
    public String opName() {
        return "lock";
    }

    @Override
    public void prepare() {
        created = SharedFileCleanup.prepare(file, createdDirs);
        List<WorkerTask> tasks = new ArrayList<>();
        for (int i = 0; i < spec.getProcesses(); i++) {
            tasks.add(WorkerTask.newBuilder()
                    .setIndex(i)
                    .setRoot(paths.root().toString())
                    .setFile(file.toString())
                    .setHotLock(spec)
                    .build());
        }
        fleet.start(tasks, file.toString());
    }

    @Override
    public List<String> paths() {
        return List.of(paths.relative(file));
    }

    @Override
    public CleanupReport cleanup() {
        fleet.release();
        return SharedFileCleanup.remove(file, created, createdDirs, paths);
    }
}

package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.OpenFileLimit;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.worker.LockFilesLoop;
import lockstep.worker.v1.WorkerTask;

/**
 * Seed 1 on one node: {@code processes} worker OS processes (fcntl locks belong to a process,
 * so threads would not contend) each running {@link LockFilesLoop}. Workers are started and
 * ready at prepare, so JVM start-up is never inside the measured time; their locks stay held
 * until cleanup.
 */
public final class LockFilesProcesses extends FleetWorkload {

    private final LockFilesWorkload spec;
    private final RootedPaths paths;
    private final Path dir;
    private final CreatedDirs createdDirs;
    // Files already in the directory before the run: the user's, never removed at cleanup.
    private final java.util.Set<String> preexisting = new java.util.HashSet<>();

    public LockFilesProcesses(LockFilesWorkload spec, RootedPaths paths) {
        this.spec = spec;
        this.paths = paths;
        this.dir = paths.resolve("dir", spec.getDir());
        this.createdDirs = new CreatedDirs(paths.root());
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
        PosixException shortage = OpenFileLimit.shortage(spec.getFiles(), dir.toString(), Posix.get().openFileLimits());
        if (shortage != null) {
            throw shortage;
        }
        try {
            if (Files.isDirectory(dir)) {
                try (var listing = Files.list(dir)) {
                    listing.forEach(f -> preexisting.add(f.getFileName().toString()));
                }
            }
            createdDirs.create(dir);
        } catch (IOException e) {
            throw new PosixException("prepare directory", dir.toString(), 0, "", e.toString());
        }
        List<WorkerTask> tasks = new ArrayList<>();
        for (int i = 0; i < spec.getProcesses(); i++) {
            tasks.add(WorkerTask.newBuilder()
                    .setIndex(i)
                    .setDir(dir.toString())
                    .setRoot(paths.root().toString())
                    .setFilePrefix(prefix(i))
                    .setLockFiles(spec)
                    .build());
        }
        fleet.start(tasks, dir.toString());
    }

    @Override
    public List<String> paths() {
        return List.of(paths.relative(dir) + "/test-<process>-<file>");
    }

    @Override
    public CleanupReport cleanup() {
        fleet.release();
        long removed = 0;
        List<String> leftovers = new ArrayList<>();
        for (int p = 0; p < spec.getProcesses(); p++) {
            for (int i = 0; i < spec.getFiles(); i++) {
                Path f = dir.resolve(LockFilesLoop.fileName(prefix(p), i));
                try {
                    // Only regular files the run made: a directory, link or file in the way is the user's.
                    if (!preexisting.contains(f.getFileName().toString())
                            && Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(f)) {
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

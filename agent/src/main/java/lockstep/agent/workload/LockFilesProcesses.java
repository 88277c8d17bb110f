package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.OpenFileLimit;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.worker.LockFilesLoop;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerTask;

/**
 * Seed 1 on one node: {@code processes} worker OS processes (fcntl locks belong to a process, so
 * threads would not contend) each running {@link LockFilesLoop}. Workers are started and ready at
 * prepare, so JVM start-up is never inside the measured time; their locks stay held until cleanup.
 */
public final class LockFilesProcesses extends FleetWorkload {

  private final LockFilesWorkload spec;
  private final RootedPaths paths;
  private final Path dir;
  private final CreatedDirs createdDirs;
  private Dir dirFd;

  public LockFilesProcesses(LockFilesWorkload spec, RootedPaths paths) {
    this.spec = spec;
    this.paths = paths;
    this.dir = paths.resolve("dir", spec.getDir());
    this.createdDirs = new CreatedDirs(paths);
  }

  @Override
  public String opName() {
    return "lock";
  }

  @Override
  public void prepare() {
    PosixException shortage =
        OpenFileLimit.shortage(spec.getFiles(), dir.toString(), Posix.get().openFileLimits());
    if (shortage != null) {
      throw shortage;
    }
    Dir d = createdDirs.create(dir);
    try {
      d.refuseExisting(this::isRunFile); // workers create with O_EXCL
    } catch (RuntimeException e) {
      d.close();
      throw e;
    }
    // From here on, a regular file at one of the run's names is the run's (cleanup removes it).
    dirFd = d;
    List<WorkerTask> tasks = new ArrayList<>();
    for (int i = 0; i < spec.getProcesses(); i++) {
      tasks.add(
          WorkerTask.newBuilder()
              .setIndex(i)
              .setDir(dir.toString())
              .setRoot(paths.root().toString())
              .setWorkload(WorkloadKind.LOCK_FILES.spec(spec))
              .build());
    }
    fleet.start(tasks, dir.toString());
  }

  /**
   * test-P-I with P and I within this run's processes and files, or a warm-up scratch file
   * .warmup-test-P-I.
   */
  private boolean isRunFile(String name) {
    boolean scratch = name.startsWith(LockFilesLoop.WARM_UP_PREFIX);
    String file = scratch ? name.substring(LockFilesLoop.WARM_UP_PREFIX.length()) : name;
    if (!file.startsWith("test-")) {
      return false;
    }
    String[] parts = file.substring(5).split("-", -1);
    try {
      int p = Integer.parseInt(parts[0]);
      int i = parts.length == 2 ? Integer.parseInt(parts[1]) : -1;
      return i >= 0
          && p < spec.getProcesses()
          && i < (scratch ? LockFilesLoop.WARM_UP_FILES : spec.getFiles())
          && file.equals(LockFilesLoop.fileName(LockFilesLoop.prefix(p), i));
    } catch (NumberFormatException e) {
      return false;
    }
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
    if (dirFd != null) {
      // Prepare found none of these names, workers create with O_EXCL: a regular file at one is the
      // run's.
      for (int p = 0; p < spec.getProcesses(); p++) {
        for (int i = 0; i < spec.getFiles(); i++) {
          String name = LockFilesLoop.fileName(LockFilesLoop.prefix(p), i);
          try {
            if (dirFd.removeIfCreated(name, null)) {
              removed++;
            }
          } catch (PosixException e) {
            leftovers.add(paths.relative(dir.resolve(name)) + ": " + e.detail());
          }
        }
      }
      // the workers' warm-up scratch files, not counted as the run's files
      for (int p = 0; p < spec.getProcesses(); p++) {
        for (int i = 0; i < LockFilesLoop.WARM_UP_FILES; i++) {
          String name = LockFilesLoop.warmUpName(LockFilesLoop.prefix(p), i);
          try {
            dirFd.removeIfCreated(name, null);
          } catch (PosixException e) {
            leftovers.add(paths.relative(dir.resolve(name)) + ": " + e.detail());
          }
        }
      }
      dirFd.close();
      dirFd = null;
    }
    leftovers.addAll(createdDirs.removeAll());
    return new CleanupReport(removed, leftovers);
  }
}

package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.RootedPaths;
import lockstep.worker.v1.WorkerTask;

/**
 * A fleet workload on one file every node of the step shares (ping-pong, hot-lock): the file is
 * made by whichever node comes first ({@link SharedFileCleanup}), one worker process per {@code
 * processes} opens it, and only the node that made it removes it.
 */
abstract class SharedFileFleet extends FleetWorkload {
  protected final RootedPaths paths;
  protected final Path file;
  private final CreatedDirs createdDirs;
  private FileId created;

  SharedFileFleet(RootedPaths paths, String fileTemplate) {
    this.paths = paths;
    this.file = paths.resolve("file", fileTemplate);
    this.createdDirs = new CreatedDirs(paths);
  }

  @Override
  public String opName() {
    return "lock";
  }

  /** Worker {@code index}'s task: index, root and file are set; the subclass adds its workload. */
  protected abstract WorkerTask task(WorkerTask.Builder base);

  /** Worker processes to start. */
  protected abstract int processes();

  @Override
  public void prepare() {
    created = SharedFileCleanup.prepare(file, createdDirs);
    List<WorkerTask> tasks = new ArrayList<>();
    for (int i = 0; i < processes(); i++) {
      tasks.add(
          task(
              WorkerTask.newBuilder()
                  .setIndex(i)
                  .setRoot(paths.root().toString())
                  .setFile(file.toString())));
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

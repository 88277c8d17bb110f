package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.constants.platform.Errno;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.RootedPaths;

/**
 * Cleanup of one file a run made: removed only while it is still that file (same device and inode).
 */
final class CreatedFile {
  private CreatedFile() {}

  /**
   * Removes {@code file} if {@code created} is set (the run made it) and the path still names it,
   * then the directories the run made. A file the run did not create is never removed.
   */
  static CleanupReport remove(Path file, FileId created, CreatedDirs dirs, RootedPaths paths) {
    long removed = 0;
    List<String> leftovers = new ArrayList<>();
    if (created != null) {
      try (RootDir rootDir = paths.openDir();
          Dir parent = rootDir.dir(paths.below(file).getParent())) {
        String name = file.getFileName().toString();
        if (parent.removeIfCreated(name, created)) {
          removed++;
        } else if (parent.idOf(name) != null) {
          leftovers.add(
              paths.relative(file) + ": no longer the file the run created; left untouched");
        }
      } catch (PosixException e) {
        if (!e.is(Errno.ENOENT)) {
          leftovers.add(paths.relative(file) + ": " + e.detail());
        }
      }
    }
    leftovers.addAll(dirs.removeAll());
    return new CleanupReport(removed, leftovers);
  }
}

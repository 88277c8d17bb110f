package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import jnr.constants.platform.Errno;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.RootedPaths;

/**
 * Directories a run created (beneath the root, never through a link), so cleanup removes exactly
 * those, innermost first.
 */
final class CreatedDirs {
  private final RootedPaths paths;
  private final Deque<Path> created = new ArrayDeque<>();

  CreatedDirs(RootedPaths paths) {
    this.paths = paths;
  }

  /**
   * The parent directory of {@code file} (absolute, from RootedPaths.resolve), made if missing; the
   * caller closes it.
   */
  Dir createParentsOf(Path file) {
    return create(file.getParent());
  }

  /**
   * The directory {@code dir} (absolute, below the root), made if missing; the caller closes it.
   */
  Dir create(Path dir) {
    Path rel = paths.below(dir);
    try (RootDir rootDir = paths.openDir()) {
      return rel.toString().isEmpty() ? rootDir.dir(rel) : rootDir.makeDirs(rel, created);
    }
  }

  List<String> removeAll() {
    List<String> leftovers = new ArrayList<>();
    while (!created.isEmpty()) {
      Path p = created.pop();
      try (RootDir rootDir = paths.openDir();
          Dir parent = rootDir.dir(p.getParent())) {
        parent.removeDir(p.getFileName().toString());
      } catch (PosixException e) {
        if (e.is(Errno.ENOTEMPTY)) {
          leftovers.add(p + ": directory not empty");
        } else if (!e.is(Errno.ENOENT)) {
          leftovers.add(p + ": " + e.detail());
        }
      }
    }
    return leftovers;
  }
}

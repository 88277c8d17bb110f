package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.RootedPaths;

/**
 * A file every node of a step shares (ping-pong, hot-lock): made at prepare by whichever node comes
 * first (O_CREAT | O_EXCL beneath the root), found by the others (a regular file with one link,
 * else refused), and removed at cleanup only by the node that made it.
 */
final class SharedFileCleanup {
  private SharedFileCleanup() {}

  /**
   * Makes the parents and the file if missing; returns the file's identity if this node made it,
   * else null.
   */
  static FileId prepare(Path file, CreatedDirs dirs) {
    Posix posix = Posix.get();
    try (Dir parent = dirs.createParentsOf(file)) {
      Dir.Opened opened = parent.openShared(file.getFileName().toString(), Posix.O_RDWR, 0644);
      try {
        return opened.created() ? posix.fstat(opened.fd(), file.toString()) : null;
      } finally {
        posix.closeQuietly(opened.fd());
      }
    }
  }

  static CleanupReport remove(Path file, FileId created, CreatedDirs dirs, RootedPaths paths) {
    CleanupReport report = CreatedFile.remove(file, created, dirs, paths);
    List<String> leftovers = new ArrayList<>();
    for (String l : report.leftovers()) {
      // Another node's file may still be in a directory we both use; not an error.
      if (!l.endsWith(": directory not empty")) {
        leftovers.add(l);
      }
    }
    return new CleanupReport(report.filesRemoved(), leftovers);
  }
}

package lockstep.agent.run;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import jnr.constants.platform.Errno;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.RootedPaths;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A run's own directory below the root ({@code lockstep-RUN}, see {@link RootedPaths#forRun}).
 * Every node of a step that shares a root (a cluster file system) uses the same one: whichever
 * comes first makes it, and whichever cleans last removes it, since only an empty directory is
 * removed and everything in it is the run's.
 */
final class RunDirs {
  private static final Logger LOG = LogManager.getLogger(RunDirs.class);

  private final RootedPaths paths;

  RunDirs(RootedPaths paths) {
    this.paths = paths;
  }

  /**
   * Makes {@code runDir} (relative to the root) beneath the root, or finds it made by another node
   * of the run; never through a link.
   */
  void create(Path runDir) {
    try (RootDir root = paths.openDir();
        Dir made = root.makeDirs(runDir, new ArrayDeque<>())) {
      LOG.debug("run directory {}", made.path());
    }
  }

  /**
   * Removes {@code runDir} if it is empty; another node's files still in it (a shared root) or none
   * at all are not errors.
   */
  void removeIfEmpty(Path runDir) {
    removeIfEmpty(runDir, false);
  }

  /**
   * As {@link #removeIfEmpty(Path)}, first removing every empty directory below it, innermost
   * first, when {@code sweep}: for a run whose nodes have all cleaned (Cleanup's run_dir_only). A
   * directory that nodes share (a workload's shared dir) is removed by the node that made it, and
   * only if empty when that node cleans: when another node's files were still in it, it stayed
   * (WorkloadsLocalIT saw a metadata run's shared tree left so). Files are never removed here, and
   * no link is followed.
   */
  void removeIfEmpty(Path runDir, boolean sweep) {
    try (RootDir root = paths.openDir();
        Dir top = root.dir(null)) {
      if (sweep) {
        removeEmptyDirsBelow(root, runDir, MAX_SWEEP_DEPTH);
      }
      top.removeDir(runDir.toString());
    } catch (PosixException e) {
      // ESTALE: another node of a shared root removed it first (GlusterFS answers so for a name
      // just removed)
      if (!isGoneOrInUse(e)) {
        LOG.warn("run directory {} not removed: {}", paths.root().resolve(runDir), e.getMessage());
      }
    }
  }

  private static final int MAX_SWEEP_DEPTH = 32;

  /**
   * Removes the empty directories below {@code dir} (relative to the root), innermost first;
   * returns false when {@code dir} is not a directory reached without following a link (a file, a
   * link) or is gone.
   */
  private static boolean removeEmptyDirsBelow(RootDir root, Path dir, int depth) {
    try (Dir d = root.dir(dir)) {
      if (depth == 0) {
        return true;
      }
      for (String name : d.list()) {
        if (!removeEmptyDirsBelow(root, dir.resolve(name), depth - 1)) {
          continue;
        }
        try {
          d.removeDir(name);
        } catch (PosixException e) {
          if (!isGoneOrInUse(e)) {
            LOG.warn("directory {} not removed: {}", d.pathOf(name), e.getMessage());
          }
        }
      }
      return true;
    } catch (PosixException | UncheckedIOException e) {
      return false; // not a directory, a link, or gone (another node swept it)
    }
  }

  /** Removed already by another node, or still holding another node's files: not a failure. */
  private static boolean isGoneOrInUse(PosixException e) {
    return e.is(Errno.ENOENT) || e.is(Errno.ESTALE) || e.is(Errno.ENOTEMPTY);
  }
}

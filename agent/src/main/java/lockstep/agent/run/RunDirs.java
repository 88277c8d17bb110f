package lockstep.agent.run;

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
    try (RootDir root = paths.openDir();
        Dir top = root.dir(null)) {
      top.removeDir(runDir.toString());
    } catch (PosixException e) {
      // ESTALE: another node of a shared root removed it first (GlusterFS answers so for a name
      // just removed)
      if (!e.is(Errno.ENOENT) && !e.is(Errno.ESTALE) && !e.is(Errno.ENOTEMPTY)) {
        LOG.warn("run directory {} not removed: {}", paths.root().resolve(runDir), e.getMessage());
      }
    }
  }
}

package lockstep.agent.run;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.env.NodeEnvironment;
import lockstep.agent.fs.RootedPaths;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One root of an agent ({@code --root}) and what its runs keep there: their directories and the
 * manifests that let a restarted agent remove what a killed one left.
 */
final class AgentRoot {
  private static final Logger LOG = LogManager.getLogger(AgentRoot.class);

  private final RootedPaths paths;
  private final RunManifests manifests;
  private final RunDirs runDirs;
  private String blockDevice;

  /** Opens the root for {@code nodeName}'s runs and removes what runs of an earlier agent left. */
  AgentRoot(Path root, String nodeName) {
    this.paths = new RootedPaths(root, nodeName);
    this.manifests = new RunManifests(paths);
    this.runDirs = new RunDirs(paths);
    List<String> left = manifests.removeLeftovers();
    if (!left.isEmpty()) {
      LOG.warn(
          "removed {} path(s) left under {} by runs of a previous instance of this agent: {}",
          left.size(),
          root,
          left);
    }
  }

  Path path() {
    return paths.root();
  }

  RootedPaths paths() {
    return paths;
  }

  RunManifests manifests() {
    return manifests;
  }

  RunDirs runDirs() {
    return runDirs;
  }

  /**
   * The run's directory if empty (after its empty subdirectories when {@code sweep}, {@link
   * RunDirs#removeIfEmpty(Path, boolean)}), then its manifest.
   */
  void removeRun(String runId, boolean sweep) {
    runDirs.removeIfEmpty(paths.forRun(runId).runDir(), sweep);
    manifests.remove(runId);
  }

  /** The root's block device, looked up once: it does not change while the agent runs. */
  synchronized String blockDevice() {
    if (blockDevice == null) {
      blockDevice = NodeEnvironment.blockDeviceOf(paths.root());
    }
    return blockDevice;
  }
}

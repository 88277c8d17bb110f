package lockstep.agent.workload;

import java.nio.file.Path;
import lockstep.agent.fs.RootedPaths;
import org.junit.jupiter.api.io.TempDir;

/** A workload test on node n1, with a fresh temporary directory for its root. */
abstract class TempRootTest {
  @TempDir Path root;

  /** Node n1's paths under {@link #root}. */
  RootedPaths paths() {
    return new RootedPaths(root, "n1");
  }
}

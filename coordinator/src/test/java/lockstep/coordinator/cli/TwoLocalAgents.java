package lockstep.coordinator.cli;

import java.nio.file.Path;
import lockstep.coordinator.local.LocalAgents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the command-line tests against two real agent processes on loopback share: a directory, and
 * the agents, started once for the test class (their logs under {@code tmp/agents}).
 */
abstract class TwoLocalAgents {
  @TempDir static Path tmp;

  static LocalAgents agents;

  @BeforeAll
  static void startAgents() throws Exception {
    agents = LocalAgents.start(2, tmp.resolve("agents"));
  }

  @AfterAll
  static void stopAgents() {
    if (agents != null) {
      agents.close();
    }
  }
}

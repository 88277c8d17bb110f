package lockstep.coordinator.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the coordinator looks for the agent jar it launches (ssh) or starts locally (demo, tests).
 */
class AgentJarTest {
  @TempDir Path tree;

  @Test
  void aSourceTreeCoordinatorFindsAgentTarget() throws Exception {
    Path jar = Files.createDirectories(tree.resolve("agent/target")).resolve("lockstep-agent.jar");
    Files.writeString(jar, "jar");
    Path classes = Files.createDirectories(tree.resolve("coordinator/target/classes"));

    assertThat(AgentJar.locateFrom(classes).path()).isEqualTo(jar);
    assertThat(AgentJar.locateFrom(classes.resolveSibling("lockstep.jar")).path()).isEqualTo(jar);
  }

  @Test
  void anInstallationFindsTheJarBesideItsOwn() throws Exception {
    Path jar = Files.writeString(tree.resolve("lockstep-agent.jar"), "jar");

    AgentJar found = AgentJar.locateFrom(tree.resolve("lockstep.jar"));

    assertThat(found.path()).isEqualTo(jar);
    assertThat(found.remoteName()).matches("lockstep-agent-[0-9a-f]{12}\\.jar");
  }

  @Test
  void noJarIsOneLineNamingWhereItLooked() throws Exception {
    Path classes = Files.createDirectories(tree.resolve("coordinator/target/classes"));

    assertThatThrownBy(() -> AgentJar.locateFrom(classes))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("no agent jar found")
        .hasMessageContaining(tree.resolve("agent/target/lockstep-agent.jar").toString())
        .hasMessageContaining("mvn -DskipTests package")
        .hasMessageNotContaining("\n");
  }
}

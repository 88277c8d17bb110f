package lockstep.coordinator.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import lockstep.coordinator.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where launch finds the agent's tarball for nodes without Java 17, and its remote name. */
class AgentTarballTest {
  @TempDir Path tree;

  @Test
  void aSourceTreeCoordinatorFindsTheNewestInDistTarget() throws Exception {
    Path target = Files.createDirectories(tree.resolve("dist/target"));
    Path older = Files.writeString(target.resolve("lockstep-agent-0.1.0-linux-amd64.tar.gz"), "a");
    Path newer = Files.writeString(target.resolve("lockstep-agent-0.2.0-linux-amd64.tar.gz"), "b");
    Files.setLastModifiedTime(older, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    Files.setLastModifiedTime(newer, FileTime.from(Instant.parse("2026-02-01T00:00:00Z")));
    Files.writeString(target.resolve("lockstep-agent_0.2.0_amd64.deb"), "not a tarball");
    Path classes = Files.createDirectories(tree.resolve("coordinator/target/classes"));

    AgentTarball found = AgentTarball.locateFrom(classes).orElseThrow();

    assertThat(found.path()).isEqualTo(newer);
    assertThat(found.remoteName()).matches("lockstep-agent-[0-9a-f]{12}");
  }

  @Test
  void anInstallationFindsTheOneBesideItsJar() throws Exception {
    Path tgz = Files.writeString(tree.resolve("lockstep-agent-0.1.0-linux-amd64.tar.gz"), "a");
    assertThat(AgentTarball.locateFrom(tree.resolve("lockstep.jar")).orElseThrow().path())
        .isEqualTo(tgz);
  }

  @Test
  void noneIsEmptyAndAMissingFileIsOneLine() throws Exception {
    Path classes = Files.createDirectories(tree.resolve("coordinator/target/classes"));
    assertThat(AgentTarball.locateFrom(classes)).isEmpty();
    assertThatThrownBy(() -> AgentTarball.of(tree.resolve("none.tar.gz")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("--agent-tarball")
        .hasMessageContaining("mvn -B package -Pdist")
        .hasMessageNotContaining("\n");
  }

  @Test
  void theSameContentHasTheSameNameAndAnotherAnother() throws Exception {
    Path a = Files.writeString(tree.resolve("a.tar.gz"), "same");
    Path b = Files.writeString(tree.resolve("b.tar.gz"), "same");
    Path c = Files.writeString(tree.resolve("c.tar.gz"), "other");
    assertThat(AgentTarball.of(a).remoteName()).isEqualTo(AgentTarball.of(b).remoteName());
    assertThat(AgentTarball.of(a).remoteName()).isNotEqualTo(AgentTarball.of(c).remoteName());
  }
}

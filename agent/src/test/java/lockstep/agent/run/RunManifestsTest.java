package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lockstep.agent.fs.RootedPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Manifests list what a run creates before it does; a new agent instance removes exactly that. */
class RunManifestsTest {
  @TempDir Path root;

  private RunManifests manifests(String node) {
    return new RunManifests(new RootedPaths(root, node));
  }

  private List<Path> under(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> !p.equals(dir)).map(dir::relativize).sorted().toList();
    }
  }

  /**
   * A run of a killed agent: its manifest (with a pid that is no longer alive) and the files it
   * made.
   */
  private void leftBehindByADeadAgent(String node, String run, String... created) throws Exception {
    RunManifests m = manifests(node);
    m.write(run, Stream.of(created).map(Path::of).toList());
    Path file =
        Files.list(root.resolve(RunManifests.dirOf(node)))
            .filter(p -> p.getFileName().toString().startsWith(run))
            .findFirst()
            .orElseThrow();
    // the pid of a process that has ended
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    Files.writeString(file, Files.readString(file).replaceAll("pid \\d+", "pid " + p.pid()));
  }

  @Test
  void aPreviousInstancesRunFilesAndDirectoriesAreRemovedAndNothingElse() throws Exception {
    Files.writeString(root.resolve("users-file"), "keep");
    Files.createDirectories(root.resolve("existing"));
    Files.writeString(root.resolve("existing/users-too"), "keep");
    leftBehindByADeadAgent("n1", "r1.all", "testFile.n1", "existing/new", "locks.n1");
    // what the run made
    Files.writeString(root.resolve("testFile.n1"), "x".repeat(4096));
    Files.createDirectories(root.resolve("existing/new/deep"));
    Files.writeString(root.resolve("existing/new/deep/file"), "x");
    Files.createDirectories(root.resolve("locks.n1"));
    Files.writeString(root.resolve("locks.n1/test-0-0"), "");
    Files.createSymbolicLink(root.resolve("locks.n1/link"), root.resolve("users-file"));

    List<String> removed = manifests("n1").removeLeftovers();

    assertThat(removed)
        .contains("testFile.n1", "existing/new", "locks.n1", "locks.n1/link", "locks.n1/test-0-0");
    assertThat(under(root))
        .containsExactly(Path.of("existing"), Path.of("existing/users-too"), Path.of("users-file"));
    assertThat(Files.readString(root.resolve("users-file"))).isEqualTo("keep");
  }

  @Test
  void anotherNodesManifestOnASharedRootIsLeftAlone() throws Exception {
    leftBehindByADeadAgent("n2", "r2.all", "testFile.n2");
    Files.writeString(root.resolve("testFile.n2"), "x");
    assertThat(manifests("n1").removeLeftovers()).isEmpty();
    assertThat(root.resolve("testFile.n2")).exists();
    assertThat(manifests("n2").removeLeftovers()).containsExactly("testFile.n2");
    assertThat(under(root)).isEmpty();
  }

  @Test
  void aManifestOfALiveAgentIsNotUsed() throws Exception {
    RunManifests m = manifests("n1");
    m.write("r3", List.of(Path.of("live")));
    Files.writeString(root.resolve("live"), "x");
    // this process wrote it and lives, but is another instance only if its pid differs: pretend it
    // does
    Path file = root.resolve(RunManifests.dirOf("n1")).resolve("r3.n1");
    Files.writeString(
        file,
        Files.readString(file)
            .replaceAll("pid \\d+", "pid " + ProcessHandle.current().parent().orElseThrow().pid()));
    assertThat(manifests("n1").removeLeftovers()).isEmpty();
    assertThat(root.resolve("live")).exists();
  }

  @Test
  void aCleanedRunsManifestAndTheAgentDirectoryGo() throws Exception {
    RunManifests m = manifests("n1");
    m.write("r4", List.of(Path.of("f")));
    assertThat(root.resolve(".lockstep-runs.n1/r4.n1")).exists();
    m.remove("r4");
    assertThat(under(root)).isEmpty();
  }

  @Test
  void aManifestPathLeavingTheRootIsRefusedAndNothingRemoved() throws Exception {
    leftBehindByADeadAgent("n1", "r5", "x");
    Path file = root.resolve(RunManifests.dirOf("n1")).resolve("r5.n1");
    Files.writeString(file, Files.readString(file).replace("path x", "path ../outside"));
    Files.writeString(root.resolve("x"), "x");
    assertThat(manifests("n1").removeLeftovers()).isEmpty();
    assertThat(root.resolve("x")).exists();
  }

  @Test
  void runIdsThatCouldForgeAManifestLineAreRefusedAndOthersNameTheirManifestSafely()
      throws Exception {
    assertThatThrownBy(() -> RunManifests.checkRunId("r\npath etc"))
        .isInstanceOf(RunException.Invalid.class)
        .hasMessageContaining("run_id");
    RunManifests.checkRunId("20261130-134608-demo-a2c7.solo-node1-r2");
    RunManifests m = manifests("node one");
    m.write("../r6.solo-node one", List.of(Path.of("f6")));
    assertThat(RunManifests.dirOf("node one").toString())
        .matches("\\.lockstep-runs\\.x[0-9a-f]{16}");
    try (Stream<Path> s = Files.list(root.resolve(RunManifests.dirOf("node one")))) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .singleElement()
          .asString()
          .matches("x[0-9a-f]{16}\\.x[0-9a-f]{16}");
    }
    m.remove("../r6.solo-node one");
    assertThat(under(root)).isEmpty();
  }
}

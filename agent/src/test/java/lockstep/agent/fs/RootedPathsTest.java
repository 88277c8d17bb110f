package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.common.InvalidWorkloadException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RootedPathsTest {
  @TempDir Path root;

  @Test
  void expandsNodeAndStaysUnderRoot() throws Exception {
    RootedPaths p = new RootedPaths(root, "orca");
    assertThat(p.resolve("file", "dir/testFile.{node}"))
        .isEqualTo(root.toRealPath().resolve("dir/testFile.orca"));
  }

  @Test
  void refusesDotDotOutOfRoot() {
    RootedPaths p = new RootedPaths(root, "orca");
    assertThatThrownBy(() -> p.resolve("file", "../../etc/passwd"))
        .isInstanceOf(InvalidWorkloadException.class)
        .hasMessageContaining("workload.file")
        .hasMessageContaining("leaves the agent root");
  }

  @Test
  void refusesAbsolutePathsAndTheRootItself() {
    RootedPaths p = new RootedPaths(root, "orca");
    assertThatThrownBy(() -> p.resolve("file", "/tmp/x")).hasMessageContaining("must be relative");
    assertThatThrownBy(() -> p.resolve("dir", "a/..")).hasMessageContaining("workload.dir");
    assertThatThrownBy(() -> p.resolve("dir", " ")).hasMessageContaining("is empty");
  }

  @Test
  void refusesSymlinkOutOfRoot(@TempDir Path outside) throws Exception {
    Files.createSymbolicLink(root.resolve("escape"), outside);
    RootedPaths p = new RootedPaths(root, "orca");
    assertThatThrownBy(() -> p.resolve("file", "escape/f")).hasMessageContaining("symbolic link");
  }

  @Test
  void aRunsPathsResolveInsideItsOwnDirectoryNamedForTheRun() throws Exception {
    RootedPaths p = new RootedPaths(root, "orca").forRun("20261130-134608-demo-a2c7.all");
    assertThat(p.runDir()).isEqualTo(Path.of("lockstep-20261130-134608-demo-a2c7.all"));
    assertThat(p.resolve("file", "dir/testFile.{node}"))
        .isEqualTo(
            root.toRealPath().resolve("lockstep-20261130-134608-demo-a2c7.all/dir/testFile.orca"));
    assertThatThrownBy(() -> p.resolve("file", "../testFile"))
        .hasMessageContaining("workload.file")
        .hasMessageContaining("leaves the run's directory");
    assertThatThrownBy(() -> p.resolve("dir", "a/.."))
        .hasMessageContaining("leaves the run's directory");
    assertThat(new RootedPaths(root, "orca").runDir()).isNull();
  }

  @Test
  void aRunIdThatIsNotAPlainNameGetsADigestForItsDirectory() {
    assertThat(RootedPaths.runDirName("../../etc")).matches("lockstep-x[0-9a-f]{16}");
    assertThat(RootedPaths.runDirName("a/b")).isNotEqualTo(RootedPaths.runDirName("a/c"));
    assertThat(RootedPaths.runDirName("r1.solo-n1-r2")).isEqualTo("lockstep-r1.solo-n1-r2");
  }
}

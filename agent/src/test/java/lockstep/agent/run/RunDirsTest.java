package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.fs.RootedPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirsTest {
  @TempDir Path root;
  @TempDir Path outside;

  @Test
  void aSweepRemovesTheEmptyDirectoriesAnotherNodeMadeButNoFileAndNoLink() throws Exception {
    Path run = Path.of("lockstep-r1");
    Path abs = root.resolve(run);
    Files.createDirectories(abs.resolve("md/a/b"));
    Files.createDirectories(abs.resolve("md/c"));
    Files.createDirectories(abs.resolve("x"));
    Files.writeString(abs.resolve("md/c/f"), "another node's file");
    Files.createDirectories(outside.resolve("target"));
    Files.createSymbolicLink(abs.resolve("link"), outside.resolve("target"));
    RunDirs dirs = new RunDirs(new RootedPaths(root, "n1"));

    dirs.removeIfEmpty(run);
    assertThat(abs.resolve("md/a/b")).isDirectory();

    dirs.removeIfEmpty(run, true);
    assertThat(abs.resolve("md/a")).doesNotExist();
    assertThat(abs.resolve("x")).doesNotExist();
    assertThat(abs.resolve("md/c/f")).exists();
    assertThat(abs.resolve("link")).isSymbolicLink();
    assertThat(outside.resolve("target")).isDirectory();

    Files.delete(abs.resolve("md/c/f"));
    Files.delete(abs.resolve("link"));
    dirs.removeIfEmpty(run, true);
    assertThat(abs).doesNotExist();
    assertThat(outside.resolve("target")).isDirectory();
  }
}

package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both resolution strategies (openat2 where the kernel has it, the O_NOFOLLOW walk) refuse the same
 * things.
 */
class RootDirTest {
  @TempDir Path root;
  @TempDir Path outside;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void opensBelowTheRootAndRefusesLinksOnTheWay(boolean openat2) throws Exception {
    Files.createDirectories(root.resolve("a/b"));
    Files.writeString(root.resolve("a/b/f"), "x");
    Files.writeString(outside.resolve("secret"), "s");
    Files.createSymbolicLink(root.resolve("a/link"), outside);
    Files.createSymbolicLink(root.resolve("a/b/flink"), outside.resolve("secret"));
    Files.createSymbolicLink(root.resolve("a/inside"), root.resolve("a/b"));
    try (RootDir dir = RootDir.open(root, openat2)) {
      Posix posix = Posix.get();
      posix.closeQuietly(dir.openRegular(Path.of("a/b/f"), Posix.O_RDONLY));
      assertThatThrownBy(() -> dir.open(Path.of("a/link/secret"), Posix.O_RDONLY, 0))
          .hasMessageContaining("a/link/secret")
          .hasMessageContaining("symbolic link");
      assertThatThrownBy(() -> dir.open(Path.of("a/b/flink"), Posix.O_RDONLY, 0))
          .hasMessageContaining("ELOOP");
      // even a link that stays inside the root is not followed
      assertThatThrownBy(() -> dir.open(Path.of("a/inside/f"), Posix.O_RDONLY, 0))
          .hasMessageContaining("symbolic link");
      assertThatThrownBy(() -> dir.open(Path.of("a/../../x"), Posix.O_RDONLY, 0))
          .hasMessageContaining("'..'");
      Deque<Path> made = new ArrayDeque<>();
      assertThatThrownBy(() -> dir.makeDirs(Path.of("a/link/new"), made))
          .hasMessageContaining("symbolic link");
      assertThat(outside.resolve("new")).doesNotExist();
      try (Dir d = dir.makeDirs(Path.of("a/c/d"), made)) {
        assertThat(made).containsExactly(Path.of("a/c/d"), Path.of("a/c"));
        int fd = d.create("g", Posix.O_WRONLY, 0644);
        posix.closeQuietly(fd);
        assertThat(d.list()).containsExactly("g");
      }
    }
  }

  @org.junit.jupiter.api.Test
  void usesOpenat2WhereTheKernelHasIt() {
    String[] v = System.getProperty("os.version").split("[.-]");
    boolean has =
        Integer.parseInt(v[0]) > 5 || (Integer.parseInt(v[0]) == 5 && Integer.parseInt(v[1]) >= 6);
    try (RootDir dir = RootDir.open(root)) {
      assertThat(dir.usesOpenat2())
          .as("kernel %s", System.getProperty("os.version"))
          .isEqualTo(has);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void hardLinkedFilesAreRefused(boolean openat2) throws Exception {
    Files.writeString(outside.resolve("secret"), "s");
    Files.createLink(root.resolve("h"), outside.resolve("secret"));
    try (RootDir dir = RootDir.open(root, openat2)) {
      assertThatThrownBy(() -> dir.openRegular(Path.of("h"), Posix.O_RDWR))
          .hasMessageContaining("2 hard links");
    }
  }
}

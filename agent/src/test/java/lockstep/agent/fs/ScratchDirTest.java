package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchDirTest {
  @Test
  void aDirectoryOfItsOwnOnTmpfsGoneWithItsFilesOnClose() throws Exception {
    Path made;
    try (ScratchDir s = ScratchDir.onTmpfs("lockstep-test")) {
      assertThat(s).isNotNull();
      made = s.path();
      assertThat(made.getParent()).isEqualTo(ScratchDir.TMPFS);
      assertThat(made.getFileName().toString()).startsWith("lockstep-test-");
      Posix posix = Posix.get();
      int fd = posix.openat(s.dir().fd(), "f", Posix.O_CREAT | Posix.O_RDWR, 0644, "f");
      posix.closeQuietly(fd);
      assertThat(made.resolve("f")).exists();
    }
    assertThat(made).doesNotExist();
  }

  @Test
  void theScratchOfAProcessThatIsGoneIsRemovedAndALiveOnesStays(@TempDir Path tmpfs)
      throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    long dead = gone.pid();
    long live = ProcessHandle.current().pid();
    Path orphan = Files.createDirectories(tmpfs.resolve("lockstep-rehearsal-" + dead + "-123"));
    Files.writeString(orphan.resolve("rehearsal.dat"), "x");
    Path ours = Files.createDirectories(tmpfs.resolve("lockstep-warmup-p0-" + live + "-456"));
    Path other = Files.createDirectories(tmpfs.resolve("someone-else-" + dead + "-789"));
    Path oldForm = Files.createDirectories(tmpfs.resolve("lockstep-rehearsal-1934456533975924517"));
    assertThat(ScratchDir.removeOrphans(tmpfs))
        .containsExactly("lockstep-rehearsal-" + dead + "-123");
    assertThat(orphan).doesNotExist();
    assertThat(ours).isDirectory();
    assertThat(other).isDirectory();
    assertThat(oldForm).isDirectory();
  }

  @Test
  void aScratchDirectorysNameCarriesItsPid() {
    try (ScratchDir s = ScratchDir.onTmpfs("lockstep-test")) {
      assertThat(s.path().getFileName().toString())
          .startsWith("lockstep-test-" + ProcessHandle.current().pid() + "-");
    }
  }
}

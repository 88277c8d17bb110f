package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
}

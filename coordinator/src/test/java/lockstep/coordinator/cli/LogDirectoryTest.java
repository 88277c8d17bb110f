package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogDirectoryTest {
  @TempDir Path tmp;

  @Test
  void anEmptyLogDirectoryGoesAndOneWithALogStays() throws Exception {
    Path empty = Files.createDirectory(tmp.resolve("logs"));
    LockstepCli.removeIfEmpty(empty);
    assertThat(empty).doesNotExist();

    Path used = Files.createDirectory(tmp.resolve("used"));
    Files.writeString(used.resolve("lockstep.log"), "a line\n");
    LockstepCli.removeIfEmpty(used);
    assertThat(used.resolve("lockstep.log")).exists();
  }
}

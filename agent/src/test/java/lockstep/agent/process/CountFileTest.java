package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CountFileTest {
  @Test
  void aCountFileNamesItsAgentAndIsGoneOnceRemoved() throws Exception {
    CountFile c = CountFile.make(false);
    Path file = Path.of(c.path());
    assertThat(file.getFileName().toString())
        .startsWith("lockstep-count-" + ProcessHandle.current().pid() + "-");
    assertThat(file).exists();
    c.remove();
    assertThat(Files.exists(file)).isFalse();
  }

  @Test
  void noInstrumentationNoFile() throws Exception {
    assertThat(CountFile.make(true).path()).isEmpty();
  }
}

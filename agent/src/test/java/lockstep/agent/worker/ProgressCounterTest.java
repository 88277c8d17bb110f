package lockstep.agent.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressCounterTest {
  @Test
  void twoMappingsOfOneFileSeeOneCountEvenAfterTheFileIsRemoved(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("count");
    ProgressCounter agent = ProgressCounter.map(file);
    ProgressCounter worker = ProgressCounter.map(file);
    Files.delete(file);
    assertThat(agent.get()).isZero();
    worker.set(41);
    assertThat(agent.get()).isEqualTo(41);
    worker.add(1);
    assertThat(agent.get()).isEqualTo(42);
    assertThat(ProgressCounter.local().get()).isZero();
  }
}

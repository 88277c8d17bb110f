package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the lab's test classes share: the lab {@link LabFixture} hands each (its {@link OnLab} says
 * which stacks and nodes) and a directory for their results.
 */
abstract class LabTest {
  static TestLab lab;

  @TempDir static Path work;

  @BeforeAll
  static void theLab(TestLab given) {
    lab = given;
  }

  /**
   * The run ended ok, and every agent recorded the cluster {@code settings} with these values and
   * the settings named {@code recorded} with any value.
   */
  static void assertOkWithSettings(
      RunRecord run, Map<String, String> settings, String... recorded) {
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    assertThat(run.agents())
        .allSatisfy(
            a -> {
              assertThat(a.clusterSettings()).containsAllEntriesOf(settings);
              assertThat(a.clusterSettings().keySet()).containsAll(List.of(recorded));
            });
  }
}

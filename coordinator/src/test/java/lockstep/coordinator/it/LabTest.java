package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the lab's test classes share: the machine check (missing: fail under CI=true, else skip),
 * the lab ({@link LabCluster#up()}, cheap when it is up) and a directory for their results.
 */
abstract class LabTest {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();
  static LabCluster lab;

  @TempDir static Path work;

  @BeforeAll
  static void upTheLab() throws Exception {
    lab = LabCluster.forClass(MACHINE);
  }

  /**
   * The run ended ok, and every agent recorded the cluster {@code settings} with these values and
   * the settings named {@code recorded} with any value.
   */
  static void assertOkWithSettings(
      RunRecord run, Map<String, String> settings, String... recorded) {
    assertThat(run.status()).isEqualTo(RunStatus.OK);
    assertThat(run.agents())
        .allSatisfy(
            a -> {
              assertThat(a.clusterSettings()).containsAllEntriesOf(settings);
              assertThat(a.clusterSettings().keySet()).containsAll(List.of(recorded));
            });
  }
}

package lockstep.coordinator.it;

import java.nio.file.Path;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the lab's test classes share: the machine check (missing: fail under CI=true, else skip),
 * the lab ({@link LabCluster#up()}, cheap when it is up) and a directory for their results.
 */
abstract class LabTest {
  static final Required.Gate MACHINE = new Required.Gate();
  static LabCluster lab;

  @TempDir static Path work;

  @BeforeAll
  static void upTheLab() throws Exception {
    lab = LabCluster.forClass(MACHINE);
  }

  @BeforeEach
  void gate() {
    MACHINE.eachTest();
  }
}

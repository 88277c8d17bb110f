package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** LabFaultIT's reading of its waiter's line. */
class WaiterLogTest {
  @Test
  void theGrantIsTheTimeTheWaiterPrinted() {
    double at = LabFaultIT.granted("granted 1796194004.512345\n", 1796193997.483);
    assertThat(at).isCloseTo(1796194004.512345, within(1e-6));
  }

  @Test
  void aGrantBeforeTheKillMeansItNeverWaitedAndIsAnError() {
    assertThatThrownBy(() -> LabFaultIT.granted("granted 1796193990.0\n", 1796193997.483))
        .hasMessageContaining("after the kill");
  }

  @Test
  void noGrantAtAllIsAnError() {
    assertThatThrownBy(() -> LabFaultIT.granted("Traceback ...\n", 1796193997.483))
        .hasMessageContaining("never granted");
  }
}

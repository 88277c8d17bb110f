package lockstep.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What {@code --metrics} accepts: a port, or HOST:PORT on loopback unless public is allowed. */
class MetricsAddressTest {
  @Test
  void metricsServeOnLoopbackUnlessToldOtherwise() {
    assertThat(MetricsAddress.parse("9464", false))
        .isEqualTo(new MetricsAddress("127.0.0.1", 9464));
    assertThat(MetricsAddress.parse("[::1]:9464", false))
        .isEqualTo(new MetricsAddress("::1", 9464));
    assertThat(MetricsAddress.parse("127.0.0.3:0", false).host()).isEqualTo("127.0.0.3");
    assertThatThrownBy(() -> MetricsAddress.parse("0.0.0.0:9464", false))
        .hasMessageStartingWith("--metrics: 0.0.0.0 is not a loopback address")
        .hasMessageContaining("--metrics-public");
    assertThat(MetricsAddress.parse("0.0.0.0:9464", true).host()).isEqualTo("0.0.0.0");
    assertThatThrownBy(() -> MetricsAddress.parse("x:y", false))
        .hasMessage("--metrics: port 'y' is not a number (give PORT or HOST:PORT)");
    assertThatThrownBy(() -> MetricsAddress.parse("70000", false))
        .hasMessage("--metrics: port 70000 is outside 0..65535");
  }
}

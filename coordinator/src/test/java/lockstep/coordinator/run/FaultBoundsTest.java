package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FaultBoundsTest {
  @Test
  void defaultsNoticeALostAgentWithinSixSeconds() {
    FaultBounds b = FaultBounds.defaults();
    assertThat(b.leaseMillis()).isEqualTo(15_000);
    assertThat(b.heartbeatMillis()).isEqualTo(1_000);
    assertThat(b.heartbeatDeadlineMillis()).isEqualTo(5_000);
  }

  @Test
  void aShortLeaseBeatsThreeTimesWithinIt() {
    FaultBounds b = FaultBounds.forLease(Duration.ofSeconds(3));
    assertThat(b.heartbeatMillis()).isEqualTo(1_000);
    assertThat(b.heartbeatDeadlineMillis()).isEqualTo(2_000);
    assertThatThrownBy(() -> FaultBounds.forLease(Duration.ofSeconds(2)))
        .hasMessageContaining("outside 3000..600000 ms");
  }

  @Test
  void aLongLeaseWaitsLongerForAnAnswer() {
    assertThat(FaultBounds.forLease(Duration.ofSeconds(30)).heartbeatDeadlineMillis())
        .isEqualTo(10_000);
    FaultBounds longest = FaultBounds.forLease(Duration.ofMinutes(10));
    assertThat(longest.heartbeatMillis()).isEqualTo(1_000);
    assertThat(longest.heartbeatDeadlineMillis()).isEqualTo(200_000);
  }

  @Test
  void manyAgentsSpreadTheirHeartbeatsWithoutOutgrowingTheLease() {
    FaultBounds b = FaultBounds.defaults();
    assertThat(b.forAgents(4)).isEqualTo(b);
    assertThat(b.forAgents(500)).isEqualTo(b);
    FaultBounds thousand = b.forAgents(1024);
    assertThat(thousand.heartbeatMillis()).isEqualTo(2_048);
    assertThat(thousand.heartbeatDeadlineMillis()).isEqualTo(5_000);
    assertThat(thousand.leaseMillis()).isEqualTo(15_000);
    FaultBounds huge = b.forAgents(100_000);
    assertThat(huge.heartbeatMillis()).isEqualTo(5_000); // a third of the lease
    assertThat(huge.heartbeatMillis() + huge.heartbeatDeadlineMillis())
        .isLessThanOrEqualTo(huge.leaseMillis());
    FaultBounds shortLease = FaultBounds.forLease(Duration.ofSeconds(3)).forAgents(1024);
    assertThat(shortLease.heartbeatMillis()).isEqualTo(1_000);
    assertThat(shortLease.heartbeatDeadlineMillis()).isEqualTo(2_000);
  }

  @Test
  void whileDescribingAHeartbeatMayTakeALease() {
    FaultBounds d = FaultBounds.defaults().forAgents(1024).whileDescribing();
    assertThat(d.heartbeatDeadlineMillis()).isEqualTo(15_000);
    assertThat(d.heartbeatMillis()).isEqualTo(2_048);
    assertThat(d.leaseMillis()).isEqualTo(15_000);
  }
}

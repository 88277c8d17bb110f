package lockstep.agent.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentCostsTest {
  @Test
  void noCostYetMeansNone() {
    assertThat(new RecentCosts(5).mean()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theMeanOfTheLastFewSetsThePaceAndAnOldCostlyOneLeavesIt() {
    RecentCosts c = new RecentCosts(3);
    c.add(30_000_000); // a just-started agent's first sample
    c.add(3_000_000);
    assertThat(c.mean()).isEqualTo(16_500_000);
    c.add(6_000_000);
    c.add(9_000_000);
    // 3, 6 and 9 ms: a slow node's steady cost, not its cheapest sample
    assertThat(c.mean()).isEqualTo(6_000_000);
    assertThat(RunTelemetry.nextDelayNanos(100_000_000, c.mean())).isEqualTo(600_000_000);
  }
}

package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClockOffsetTest {
  @Test
  void keepsTheLowestRoundTripSample() {
    // agent runs 5 ms ahead; the slow probes' answers were taken late in their round trip
    List<ClockSample> samples =
        List.of(
            new ClockSample(1_000_000_000L, 40_000_000, 1_000_000_000L + 5_000_000 + 35_000_000),
            new ClockSample(2_000_000_000L, 200_000, 2_000_000_000L + 5_000_000 + 100_000),
            new ClockSample(3_000_000_000L, 9_000_000, 3_000_000_000L + 5_000_000 + 1_000_000));
    ClockOffset o = ClockOffset.fromBestOf(samples);
    assertThat(o.offsetNanos()).isEqualTo(5_000_000);
    assertThat(o.roundTripNanos()).isEqualTo(200_000);
    assertThat(o.uncertaintyNanos()).isEqualTo(100_000);
    assertThat(o.probes()).isEqualTo(3);
    assertThat(o.toAgentClock(10_000_000_000L)).isEqualTo(10_005_000_000L);
    assertThat(o.toCoordinatorClock(10_005_000_000L)).isEqualTo(10_000_000_000L);
  }

  @Test
  void fourTimestampsLeaveTheAgentsHandlingTimeOutOfOffsetAndUncertainty() {
    // agent 2 ms behind; 100 us out, the agent holds the probe 3 ms, 100 us back
    long t1 = 10_000_000_000L;
    long t2 = t1 + 100_000 - 2_000_000;
    long t3 = t2 + 3_000_000;
    long rtt = 100_000 + 3_000_000 + 100_000;
    ClockSample s = new ClockSample(t1, rtt, t2, t3);
    assertThat(s.offsetNanos()).isEqualTo(-2_000_000);
    assertThat(s.delayNanos()).isEqualTo(200_000);
    assertThat(s.agentHoldNanos()).isEqualTo(3_000_000);
    assertThat(s.receivedUnixNanos()).isEqualTo(t1 + rtt);
    // one time only (an older agent): the holding time counts as delay
    ClockSample old = new ClockSample(t1, rtt, t2);
    assertThat(old.delayNanos()).isEqualTo(rtt);
  }

  @Test
  void anAsymmetricPathIsWrongByAtMostHalfTheDelay() {
    // true offset 0; the request takes 900 us, the answer 100 us
    long t1 = 5_000_000_000L;
    ClockSample s = new ClockSample(t1, 1_000_000 + 10_000, t1 + 900_000, t1 + 910_000);
    ClockOffset o = ClockOffset.fromBestOf(List.of(s));
    assertThat(Math.abs(o.offsetNanos()))
        .isEqualTo(400_000)
        .isLessThanOrEqualTo(o.uncertaintyNanos());
    assertThat(o.uncertaintyNanos()).isEqualTo(500_000);
  }

  @Test
  void picksTheProbeWithTheLeastDelayNotTheShortestRoundTrip() {
    long t1 = 1_000_000_000L;
    ClockSample quickButQueued = new ClockSample(t1, 900_000, t1 + 800_000, t1 + 800_000);
    ClockSample slowAgentCleanWire = new ClockSample(t1, 2_000_000, t1 + 50_000, t1 + 1_950_000);
    ClockOffset o = ClockOffset.fromBestOf(List.of(quickButQueued, slowAgentCleanWire));
    assertThat(o.roundTripNanos()).isEqualTo(100_000);
    assertThat(o.offsetNanos()).isZero();
  }

  @Test
  void aSameHostAgentsOffsetLiesWithinItsUncertainty(@TempDir Path base) throws Exception {
    // one clock on both sides (true offset 0): whatever the timings, |offset| <= delay / 2
    try (InProcessCluster<AgentServer> cluster = AgentMembers.inProcess(base, 1)) {
      GrpcAgent agent = new GrpcAgent("in-process", cluster.member(0).channel());
      ClockSample one = agent.probeClock();
      assertThat(one.agentReceiveUnixNanos())
          .isPositive()
          .isLessThanOrEqualTo(one.agentSendUnixNanos());
      // every probe, not only the best: the agent's two readings lie inside the coordinator's
      // send and receive (a pause between its monotonic and wall-clock reads once put the answer
      // 12 us before the agent sent it)
      for (int i = 0; i < 200; i++) {
        ClockSample s = agent.probeClock();
        assertThat(s.agentReceiveUnixNanos()).isGreaterThanOrEqualTo(s.sentUnixNanos());
        assertThat(s.agentSendUnixNanos()).isLessThanOrEqualTo(s.receivedUnixNanos());
      }
      ClockOffset o = ClockOffset.measure(agent, 2, 5);
      assertThat(o.probes()).isEqualTo(5);
      assertThat(Math.abs(o.offsetNanos())).isLessThanOrEqualTo(o.uncertaintyNanos() + 1);
      assertThat(ClockOffset.measure(agent).probes())
          .isBetween(ClockOffset.MIN_PROBES, ClockOffset.PROBES);
    }
  }

  @Test
  void noProbesIsRefused() {
    assertThatThrownBy(() -> ClockOffset.fromBestOf(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClockOffset.measure(null, 0, 0))
        .hasMessageContaining("probes must be at least 1");
  }
}

package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClockOffsetTest {
    @Test
    void keepsTheLowestRoundTripSample() {
        // agent runs 5 ms ahead; the slow probes' answers were taken late in their round trip
        List<ClockSample> samples = List.of(
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
}

package lockstep.coordinator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.NodeResult;
import org.junit.jupiter.api.Test;

/** A node's start skew is the lateness of its first operation at the instant, counted or not. */
class NodeResultsTest {
  private static final long T = 1_800_000_000_000_000_000L;

  /** The agent's clock 1 s ahead of the coordinator's. */
  private static final ClockOffset AHEAD = new ClockOffset(1_000_000_000L, 200_000, 8);

  @Test
  void pingPongsSkewIsItsWarmUpRingsStartNotItsMeasuredWindowsStart() {
    WorkloadResult r =
        WorkloadResult.newBuilder()
            .setState(RunState.RUN_STATE_SUCCEEDED)
            .setStartedUnixNanos(T + 1_000_000_000L + 2_000_000L) // 2 ms late, agent's clock
            .setFirstOpUnixNanos(T + 1_000_000_000L + 500_000_000L) // after 500 ms of warm-up
            .setEndUnixNanos(T + 1_000_000_000L + 1_500_000_000L)
            .setMeasureDelayNanos(500_000_000L)
            .setOps(1000)
            .build();
    NodeResult n = NodeResults.of("n1", r, AHEAD, T, WorkloadKind.PING_PONG, 0);
    assertThat(n.startSkewMillis()).isCloseTo(2.0, within(1e-6));
    // an agent of a version before started_unix_nanos: first op minus the warm-up, as before
    NodeResult old =
        NodeResults.of(
            "n1",
            r.toBuilder().clearStartedUnixNanos().build(),
            AHEAD,
            T,
            WorkloadKind.PING_PONG,
            0);
    assertThat(old.startSkewMillis()).isCloseTo(0.0, within(1e-6));
  }
}

package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** LabFaultIT's reading of ping_pong's time-stamped lines, on lines from a real GFS2 kill. */
class PingPongLogTest {
  // node1's ping_pong through the kill of node2 at 1796148769.907 (node1's clock), 2026-12-01
  private static final String LOG =
      """
      1796148763.052253464 90 locks/sec
      1796148764.479142840 67 locks/sec
      1796148765.395122252 66 locks/sec
      1796148766.480009056 71 locks/sec
      1796148767.389125241 91 locks/sec
      1796148768.139792364 100 locks/sec
      1796148768.976799347 107 locks/sec
      1796148769.774057333 109 locks/sec
      1796148777.378549745 9 locks/sec
      1796148778.573455819 84 locks/sec
      1796148779.738968260 95 locks/sec
      1796148780.830757792 93 locks/sec
      """;

  @Test
  void theLocksCameBackWhenTheFirstLineAfterTheGapSaysTheyDid() {
    // 9 locks at the ~91/s of the lines before: 0.1 s of locking before that line
    double resumed = LabFaultIT.pingPongResumed(LOG, 1796148769.907);
    assertThat(resumed - 1796148769.907).isCloseTo(7.37, within(0.02));
  }

  @Test
  void aLogWithoutAStallAfterTheKillIsAnError() {
    assertThatThrownBy(() -> LabFaultIT.pingPongResumed(LOG, 1796148778.0))
        .hasMessageContaining("never stalled after the kill");
  }
}

package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunSeriesEndTest {
  @Test
  void aRunThatWorkedToTheEndOfItsWindowEndsAtItsLastOp() {
    // window to 6.0 s, last op ended at 6.001 s, the agent had the result at 6.1 s
    assertThat(Run.seriesEnd(6_001, 6_000, 6_100)).isEqualTo(6_001);
  }

  @Test
  void aRunStalledUntilItsWindowEndedKeepsTheStall() {
    // last op at 2.5 s, window to 6.0 s: the flat stretch from 2.5 to 6.0 s is the stall
    assertThat(Run.seriesEnd(2_500, 6_000, 6_100)).isEqualTo(6_000);
  }

  @Test
  void anAbortedRunEndsNow() {
    assertThat(Run.seriesEnd(2_500, 6_000, 3_000)).isEqualTo(3_000);
  }

  @Test
  void aRunWithoutALastOpOrWindowEndsNow() {
    assertThat(Run.seriesEnd(0, 6_000, 6_100)).isEqualTo(6_100);
    assertThat(Run.seriesEnd(4_000, 0, 6_100)).isEqualTo(4_000);
  }
}

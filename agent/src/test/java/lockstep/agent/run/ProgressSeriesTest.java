package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProgressSeriesTest {
  @ParameterizedTest(name = "{4}")
  @CsvSource({
    // last op end, window end, now (ms): where the series ends
    // window to 6.0 s, last op ended at 6.001 s, the agent had the result at 6.1 s
    "6001, 6000, 6100, 6001, a run that worked to the end of its window ends at its last op",
    // last op at 2.5 s, window to 6.0 s: the flat stretch from 2.5 to 6.0 s is the stall
    "2500, 6000, 6100, 6000, a run stalled until its window ended keeps the stall",
    "2500, 6000, 3000, 3000, an aborted run ends now",
    "0, 6000, 6100, 6100, a run without a last op ends now",
    "4000, 0, 6100, 4000, a run without a window ends at its last op",
  })
  void seriesEnd(long lastOpEnd, long windowEnd, long now, long end, String run) {
    assertThat(ProgressSeries.seriesEnd(lastOpEnd, windowEnd, now)).isEqualTo(end);
  }
}

package lockstep.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyHistogramsTest {
  @Test
  void aHistogramForRecordingHoldsLatenciesUpToTenSecondsWithoutGrowing() {
    Histogram h = LatencyHistograms.forRecording();
    int footprint = h.getEstimatedFootprintInBytes();
    for (long v = 1; v <= LatencyHistograms.PRESIZED_NANOS; v *= 3) {
      h.recordValue(v);
    }
    h.recordValue(LatencyHistograms.PRESIZED_NANOS);
    assertThat(h.getEstimatedFootprintInBytes()).isEqualTo(footprint);
    // and one made by create() does grow
    Histogram grown = LatencyHistograms.create();
    int small = grown.getEstimatedFootprintInBytes();
    grown.recordValue(LatencyHistograms.PRESIZED_NANOS);
    assertThat(grown.getEstimatedFootprintInBytes()).isGreaterThan(small);
  }

  @Test
  void aHistogramForRecordingStillGrowsBeyondAndTravelsLikeAnyOther() {
    Histogram h = LatencyHistograms.forRecording();
    h.recordValue(1_500);
    h.recordValue(3 * LatencyHistograms.PRESIZED_NANOS);
    Histogram back = LatencyHistograms.decode(LatencyHistograms.encode(h));
    assertThat(back.getTotalCount()).isEqualTo(2);
    assertThat(back.getMinValue()).isEqualTo(h.getMinValue());
    assertThat(back.getMaxValue()).isEqualTo(h.getMaxValue());
    // merged into a create()'d histogram it is as small as its values need
    Histogram merged = LatencyHistograms.create();
    merged.add(
        LatencyHistograms.decode(LatencyHistograms.encode(LatencyHistograms.forRecording())));
    assertThat(merged.getEstimatedFootprintInBytes())
        .isLessThan(LatencyHistograms.forRecording().getEstimatedFootprintInBytes());
  }
}

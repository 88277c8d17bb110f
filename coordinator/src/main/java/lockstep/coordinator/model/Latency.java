package lockstep.coordinator.model;

import com.google.protobuf.ByteString;
import java.util.Base64;
import java.util.Collection;
import lockstep.common.LatencyHistograms;
import org.HdrHistogram.Histogram;

/** Latency percentiles in microseconds, read off a (merged) histogram. */
public record Latency(
    long count,
    double meanMicros,
    double p50Micros,
    double p90Micros,
    double p99Micros,
    double p999Micros,
    double maxMicros) {

  /** The percentiles of several runs' histograms (run.json's base64 form) merged into one. */
  public static Latency merged(Collection<String> base64Histograms) {
    Histogram all = LatencyHistograms.create();
    for (String b : base64Histograms) {
      if (b != null && !b.isEmpty()) {
        all.add(LatencyHistograms.decode(ByteString.copyFrom(Base64.getDecoder().decode(b))));
      }
    }
    return of(all);
  }

  public static Latency of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new Latency(0, 0, 0, 0, 0, 0, 0);
    }
    return new Latency(
        h.getTotalCount(),
        h.getMean() / 1e3,
        h.getValueAtPercentile(50) / 1e3,
        h.getValueAtPercentile(90) / 1e3,
        h.getValueAtPercentile(99) / 1e3,
        h.getValueAtPercentile(99.9) / 1e3,
        h.getMaxValue() / 1e3);
  }
}

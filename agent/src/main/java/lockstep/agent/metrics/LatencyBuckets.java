package lockstep.agent.metrics;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import org.HdrHistogram.Histogram;

/**
 * A Prometheus classic histogram (seconds) from an HdrHistogram of nanoseconds: the count at or
 * below each bound, 1-2-5 steps from 1 us to 100 s, then +Inf. The HdrHistogram is the one the
 * workload already recorded; nothing is observed twice.
 */
public final class LatencyBuckets {
  /** Upper bounds in seconds: 1 us, 2 us, 5 us, 10 us ... 50 s, 100 s. */
  static final double[] BOUNDS = {
    1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1,
    0.2, 0.5, 1, 2, 5, 10, 20, 50, 100
  };

  private LatencyBuckets() {}

  /** Cumulative-per-bucket counts as Prometheus wants them (each bucket's own count, +Inf last). */
  public static ClassicHistogramBuckets of(Histogram h) {
    double[] bounds = new double[BOUNDS.length + 1];
    long[] counts = new long[BOUNDS.length + 1];
    long below = 0;
    for (int i = 0; i < BOUNDS.length; i++) {
      long upToNanos = Math.round(BOUNDS[i] * 1e9);
      long cumulative =
          h.getTotalCount() == 0
              ? 0
              : h.getCountBetweenValues(0, Math.min(upToNanos, h.getMaxValue()));
      // getCountBetweenValues counts values equivalent to the bound: never above the total
      cumulative = Math.min(cumulative, h.getTotalCount());
      bounds[i] = BOUNDS[i];
      counts[i] = Math.max(0, cumulative - below);
      below += counts[i];
    }
    bounds[BOUNDS.length] = Double.POSITIVE_INFINITY;
    counts[BOUNDS.length] = Math.max(0, h.getTotalCount() - below);
    return ClassicHistogramBuckets.of(bounds, counts);
  }

  /** The sum of every recorded latency, seconds (HdrHistogram's mean x count). */
  public static double sumSeconds(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getMean() * h.getTotalCount() / 1e9;
  }
}

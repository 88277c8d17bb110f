package lockstep.coordinator.model;

import java.util.List;

/** Mean, min, max and sample standard deviation of n values (the repeats of one figure). */
public record Stats(int n, double mean, double min, double max, double stddev) {

  public static Stats of(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double mean = sum / values.size();
    double sq = 0;
    for (double v : values) {
      sq += (v - mean) * (v - mean);
    }
    double stddev = values.size() > 1 ? Math.sqrt(sq / (values.size() - 1)) : 0;
    return new Stats(values.size(), mean, min, max, stddev);
  }

  /** Coefficient of variation (stddev / mean), 0 when the mean is 0. */
  public double cv() {
    return mean == 0 ? 0 : stddev / mean;
  }
}

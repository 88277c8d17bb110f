package lockstep.coordinator.model;

import org.HdrHistogram.Histogram;

/** Latency percentiles in microseconds, read off a (merged) histogram. */
public record Latency(long count, double meanMicros, double p50Micros, double p90Micros, double p99Micros,
                      double p999Micros, double maxMicros) {

    public static Latency of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new Latency(0, 0, 0, 0, 0, 0, 0);
        }
        return new Latency(h.getTotalCount(), h.getMean() / 1e3,
                h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
    }
}

package lockstep.coordinator.model;

/**
 * One expectation of the run (from the scenario's {@code expect:} or {@code --expect}) and how it
 * came out; run.json's {@code expectations}.
 *
 * @param figure the figure judged, as written: "efficiency", "skew", "node-p99", ...
 * @param expression the comparison as written: ">= 0.8", "<= 5ms"
 * @param name the figure and the comparison in one form: "efficiency >= 0.80" (the JUnit test case)
 * @param measured the figure in {@code unit}; null when it could not be measured or was not judged
 * @param bound the comparison's number in {@code unit}
 * @param unit what {@code measured} and {@code bound} count: "ratio", "ms", "errors", or the run's
 *     throughput unit (MB/s, locks/s, ops/s)
 * @param node the node the measured figure is from (per-node figures, skew), else null
 * @param message the line printed: "expect efficiency >= 0.80: measured 0.61 (lowest node2 0.55)"
 */
public record ExpectationOutcome(
    String figure,
    String expression,
    String name,
    ExpectationStatus status,
    Double measured,
    double bound,
    String unit,
    String node,
    String message) {

  public boolean broken() {
    return status == ExpectationStatus.BROKEN;
  }
}

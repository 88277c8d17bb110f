package lockstep.coordinator.model;

import java.util.List;
import java.util.Optional;

/**
 * One plan step (e.g. "solo-node1", "ramp-2", "all") over its repeats.
 *
 * @param aggregate per repeat, the sum of the nodes' own throughputs
 * @param overlapAggregate per repeat, the sum of the nodes' throughputs in the overlap window
 * @param aggregateEfficiency aggregate mean / the sum of these nodes' mean solo throughputs
 * @param meanNodeEfficiency mean of the nodes' efficiencies
 * @param skewTooLarge some repeat started with a skew above the run's threshold
 */
public record StepSummary(
    String group,
    String kind,
    List<String> nodes,
    int repeats,
    int okRepeats,
    List<NodeStepStats> perNode,
    Stats aggregate,
    Stats overlapAggregate,
    Stats overlapSeconds,
    Double aggregateEfficiency,
    Double meanNodeEfficiency,
    Fairness fairness,
    double maxAbsSkewMillis,
    boolean skewTooLarge) {

  /**
   * The plan step that runs every node at once, whose figures are the run's "together" ones: "all",
   * else the largest multi-node ramp step; only steps with a repeat that finished.
   */
  public static Optional<StepSummary> concurrent(List<StepSummary> steps) {
    Optional<StepSummary> all =
        steps.stream().filter(s -> "all".equals(s.kind()) && s.okRepeats() > 0).findFirst();
    if (all.isPresent()) {
      return all;
    }
    return steps.stream()
        .filter(s -> "ramp".equals(s.kind()) && s.okRepeats() > 0 && s.nodes().size() > 1)
        .max((a, b) -> Integer.compare(a.nodes().size(), b.nodes().size()));
  }
}

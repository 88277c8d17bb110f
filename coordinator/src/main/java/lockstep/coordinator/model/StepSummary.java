package lockstep.coordinator.model;

import java.util.List;

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
    boolean skewTooLarge) {}

package lockstep.coordinator.model;

/**
 * One node in one plan step, over the step's repeats.
 *
 * @param throughput the node's own throughput (its work over its own first-op..end span)
 * @param overlapThroughput the node's throughput inside the overlap window (null for one node)
 * @param efficiency mean throughput here / the node's mean solo throughput (null without a solo)
 */
public record NodeStepStats(String node, Stats throughput, Stats overlapThroughput, Double efficiency,
                            Stats latencyP50Micros, Stats latencyP99Micros, double maxAbsSkewMillis,
                            long coherenceErrors) {
}

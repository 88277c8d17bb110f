package lockstep.coordinator.model;

/**
 * One node in one plan step, over the step's repeats.
 *
 * @param throughput the node's own throughput (its work over its own first-op..end span)
 * @param overlapThroughput the node's throughput inside the overlap window (null for one node)
 * @param efficiency mean throughput here / the node's mean solo throughput (null without a solo)
 * @param latency percentiles of the node's histograms of every repeat, merged (never averaged)
 */
public record NodeStepStats(
    String node,
    Stats throughput,
    Stats overlapThroughput,
    Double efficiency,
    Latency latency,
    double maxAbsSkewMillis,
    long coherenceErrors) {}

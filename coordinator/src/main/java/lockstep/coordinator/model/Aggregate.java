package lockstep.coordinator.model;

/**
 * A step over all its nodes.
 *
 * @param throughput total work over the span from the first node's first op to the last node's end
 * @param sumOfNodes the sum of each node's own throughput
 * @param latency percentiles of the merged histograms of all nodes
 */
public record Aggregate(
    double seconds,
    long ops,
    long bytes,
    double throughput,
    double sumOfNodes,
    double maxAbsSkewMillis,
    Latency latency,
    String histogram) {}

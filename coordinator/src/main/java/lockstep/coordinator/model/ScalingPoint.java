package lockstep.coordinator.model;

/**
 * One point of the scaling curve: the aggregate with {@code nodes} nodes running at once.
 *
 * @param ideal the sum of the participating nodes' mean solo throughputs (null without solos)
 * @param efficiency aggregate / ideal
 * @param perNode aggregate / nodes
 */
public record ScalingPoint(
    int nodes,
    String group,
    double aggregate,
    Double overlapAggregate,
    Double ideal,
    Double efficiency,
    double perNode) {}

package lockstep.coordinator.model;

/**
 * One kind of operation within a node's run (metadata: create, stat, rename, unlink).
 *
 * @param seconds wall time of the phase
 * @param rate ops per second over the phase
 */
public record OperationFigures(
    String name, long ops, double seconds, double rate, Latency latency) {}

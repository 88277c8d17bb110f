package lockstep.coordinator.model;

/**
 * How evenly nodes shared a step: Jain's index (sum x)^2 / (n * sum x^2), 1 = perfectly even, 1/n =
 * one node got everything; and the slowest node's throughput over the fastest's.
 */
public record Fairness(double jainIndex, double minOverMax, String slowest, String fastest) {}

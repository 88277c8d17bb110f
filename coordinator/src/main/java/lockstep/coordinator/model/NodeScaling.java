package lockstep.coordinator.model;

/** One node's solo and concurrent throughput and their ratio. */
public record NodeScaling(String node, Double solo, Double concurrent, Double efficiency) {}

package lockstep.coordinator.model;

/**
 * One progress sample: seconds since the step's intended start (coordinator clock), cumulative ops
 * and bytes, and the rate over the interval since the previous sample (the run's unit).
 */
public record Sample(double t, long ops, long bytes, double rate) {}

package lockstep.coordinator.model;

/**
 * One sentence of the verdict.
 *
 * @param code stable identifier, e.g. "halved", "rate-limit", "outlier", "start-skew", "coherence"
 */
public record Finding(String code, Severity severity, String message) {}

package lockstep.coordinator.model;

/**
 * One sentence of the verdict.
 *
 * @param code stable identifier, e.g. "halved", "rate-limit", "outlier", "start-skew", "coherence"
 * @param severity "invalid" (the run's figures cannot be trusted), "warning" or "info"
 */
public record Finding(String code, String severity, String message) {
    public static final String INVALID = "invalid";
    public static final String WARNING = "warning";
    public static final String INFO = "info";
}

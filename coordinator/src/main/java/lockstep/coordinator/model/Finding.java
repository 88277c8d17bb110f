package lockstep.coordinator.model;

/**
 * One sentence of the verdict.
 *
 * @param code stable identifier, e.g. "halved", "rate-limit", "outlier", "start-skew", "coherence"
 * @param kind what it is about ({@link FindingKind#of} the code when not given, as in run.json
 *     files written before kinds)
 * @param step the plan step it is about (its group, or a step id), null for the whole run
 * @param headline one of the (at most three) findings a report leads with
 */
public record Finding(
    String code,
    Severity severity,
    String message,
    FindingKind kind,
    String step,
    boolean headline) {

  public Finding {
    kind = kind == null ? FindingKind.of(code) : kind;
  }

  /** A finding about the whole run. */
  public Finding(String code, Severity severity, String message) {
    this(code, severity, message, null, null, false);
  }

  /** A finding about one step. */
  public Finding(String code, Severity severity, String message, String step) {
    this(code, severity, message, null, step, false);
  }

  public Finding asHeadline() {
    return new Finding(code, severity, message, kind, step, true);
  }
}

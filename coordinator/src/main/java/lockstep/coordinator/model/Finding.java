package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One sentence of the verdict. run.json writes it as it always has: {@code code} (the code's word,
 * "rate-limit"), {@code severity}, {@code message}, {@code kind} (the code's, for readers of the
 * file; a file's own is not read back), {@code step}, {@code headline}.
 *
 * @param type what the finding says, typed; its word is {@link #code}
 * @param step the plan step it is about (its group, or a step id), null for the whole run
 * @param headline one of the (at most three) findings a report leads with
 */
@JsonPropertyOrder({"code", "severity", "message", "kind", "step", "headline"})
public record Finding(
    @JsonProperty("code") FindingCode type,
    Severity severity,
    String message,
    String step,
    boolean headline) {

  /** A finding about the whole run. */
  public Finding(FindingCode type, Severity severity, String message) {
    this(type, severity, message, null, false);
  }

  /** A finding about one step. */
  public Finding(FindingCode type, Severity severity, String message, String step) {
    this(type, severity, message, step, false);
  }

  /** The code as run.json and the reports write it ("rate-limit"). */
  public String code() {
    return type.toString();
  }

  /** What it is about: its code's kind. */
  @JsonProperty(value = "kind", access = JsonProperty.Access.READ_ONLY)
  public FindingKind kind() {
    return type.kind();
  }

  public Finding asHeadline() {
    return new Finding(type, severity, message, step, true);
  }
}

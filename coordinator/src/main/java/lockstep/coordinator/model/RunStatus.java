package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The status of a run, of a step, or of a node's part in a step: run.json's {@code status} fields.
 * A run is ok, failed, interrupted or collected (assembled by {@code lockstep collect} from what
 * agents kept); a step ok or failed; a node ok, failed, aborted or incomplete. Written and read as
 * the lower-case word ({@code "ok"}), as run.json always had it.
 */
public enum RunStatus {
  OK,
  FAILED,
  ABORTED,
  INCOMPLETE,
  INTERRUPTED,
  COLLECTED;

  /** The word in run.json, the CSV files and the reports. */
  @JsonValue
  @Override
  public String toString() {
    return EnumWords.word(this);
  }

  @JsonCreator
  public static RunStatus of(String word) {
    return EnumWords.parse(RunStatus.class, "status", word);
  }
}

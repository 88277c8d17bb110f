package lockstep.coordinator.model;

/**
 * The status of a run, of a step, or of a node's part in a step: run.json's {@code status} fields.
 * A run is ok, failed, interrupted or collected (assembled by {@code lockstep collect} from what
 * agents kept); a step ok or failed; a node ok, failed, aborted or incomplete. Written and read as
 * the lower-case word ({@code "ok"}), as run.json always had it.
 */
@WrittenAsWord("status")
public enum RunStatus {
  OK,
  FAILED,
  ABORTED,
  INCOMPLETE,
  INTERRUPTED,
  COLLECTED;

  /** The word in run.json, the CSV files and the reports. */
  @Override
  public String toString() {
    return EnumWords.word(this);
  }
}

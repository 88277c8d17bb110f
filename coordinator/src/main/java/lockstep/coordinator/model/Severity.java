package lockstep.coordinator.model;

/**
 * How much a finding of the verdict weighs, most severe first: INVALID (the run's figures cannot be
 * trusted), WARNING, INFO. Written and read as the lower-case word, as run.json always had it.
 */
@WrittenAsWord("severity")
public enum Severity {
  INVALID,
  WARNING,
  INFO;

  @Override
  public String toString() {
    return EnumWords.word(this);
  }
}

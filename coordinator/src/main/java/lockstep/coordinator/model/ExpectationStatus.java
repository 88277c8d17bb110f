package lockstep.coordinator.model;

/**
 * How an expectation came out: HELD (the measured figure satisfies it), BROKEN (it does not, or the
 * figure could not be measured), ERROR (not judged: the run itself failed). Written and read as the
 * lower-case word, as every status in run.json.
 */
@WrittenAsWord("expectation status")
public enum ExpectationStatus {
  HELD,
  BROKEN,
  ERROR;

  @Override
  public String toString() {
    return EnumWords.word(this);
  }
}

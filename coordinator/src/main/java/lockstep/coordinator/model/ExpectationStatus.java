package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How an expectation came out: HELD (the measured figure satisfies it), BROKEN (it does not, or the
 * figure could not be measured), ERROR (not judged: the run itself failed). Written and read as the
 * lower-case word, as every status in run.json.
 */
public enum ExpectationStatus {
  HELD,
  BROKEN,
  ERROR;

  @JsonValue
  @Override
  public String toString() {
    return EnumWords.word(this);
  }

  @JsonCreator
  public static ExpectationStatus of(String word) {
    return EnumWords.parse(ExpectationStatus.class, "expectation status", word);
  }
}

package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How much a finding of the verdict weighs, most severe first: INVALID (the run's figures cannot be
 * trusted), WARNING, INFO. Written and read as the lower-case word, as run.json always had it.
 */
public enum Severity {
  INVALID,
  WARNING,
  INFO;

  @JsonValue
  @Override
  public String toString() {
    return EnumWords.word(this);
  }

  @JsonCreator
  public static Severity of(String word) {
    return EnumWords.parse(Severity.class, "severity", word);
  }
}

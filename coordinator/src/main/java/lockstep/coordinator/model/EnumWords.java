package lockstep.coordinator.model;

import java.util.Arrays;
import java.util.Locale;

/** The one rule for enums written to run.json: each constant is its name in lower case. */
final class EnumWords {
  private EnumWords() {}

  static String word(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The constant whose word is {@code word}; else an error naming the field and the words it may
   * be.
   */
  static <E extends Enum<E>> E parse(Class<E> type, String field, String word) {
    E[] all = type.getEnumConstants();
    return Arrays.stream(all)
        .filter(c -> word(c).equals(word))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    field + " '" + word + "' is not one of " + Arrays.toString(all)));
  }
}

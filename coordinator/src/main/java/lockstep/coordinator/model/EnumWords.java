package lockstep.coordinator.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * The one rule for enums written to run.json: each constant is its name in lower case, '-' for '_'
 * ({@code RATE_LIMIT} is {@code rate-limit}).
 */
final class EnumWords {
  private EnumWords() {}

  static String word(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The constant of a {@link WrittenAsWord} enum whose word is {@code word}; else an error naming
   * the field and the words it may be.
   */
  static <E extends Enum<E>> E parse(Class<E> type, String word) {
    E[] all = type.getEnumConstants();
    return Arrays.stream(all)
        .filter(c -> word(c).equals(word))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    type.getAnnotation(WrittenAsWord.class).value()
                        + " '"
                        + word
                        + "' is not one of "
                        + Arrays.toString(all)));
  }

  /**
   * Reads a {@link WrittenAsWord} enum; a word it does not know fails as a throwing
   * {@code @JsonCreator} would, so the error reads as it always has.
   */
  static final class Deserializer extends JsonDeserializer<Enum<?>>
      implements ContextualDeserializer {
    private final Class<?> type;

    Deserializer() {
      this(null);
    }

    private Deserializer(Class<?> type) {
      this.type = type;
    }

    @Override
    public JsonDeserializer<?> createContextual(
        DeserializationContext ctxt, BeanProperty property) {
      return new Deserializer(ctxt.getContextualType().getRawClass());
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Enum<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      String word = p.getValueAsString();
      try {
        return parse((Class) type, word);
      } catch (IllegalArgumentException e) {
        return (Enum<?>) ctxt.handleInstantiationProblem(type, word, e);
      }
    }
  }
}

package lockstep.common;

import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import java.util.List;
import java.util.Locale;

/**
 * One field of a workload as a scenario writes it and the agent's proto message holds it: its YAML
 * name, the proto field it sets, how its text reads, and its default. The scenario parser maps
 * every field of a {@link WorkloadKind} through this table; nothing else lists a workload's fields.
 *
 * @param yamlName the scenario's name ({@code block-size})
 * @param protoName the field of the kind's proto message ({@code block_size_bytes})
 * @param type how the value is written
 * @param defaultText the value when the field is absent, written as in YAML; null = required
 * @param noun what an unknown word is called in an error ("unknown lock kind 'x'"), for words
 * @param choices for {@link Type#CHOICE}: the word for false, then the word for true
 */
public record WorkloadField(
    String yamlName,
    String protoName,
    Type type,
    String defaultText,
    String noun,
    List<String> choices) {

  /** How a field's YAML value reads. */
  public enum Type {
    /** A path under the agent's root, relative; {@code {node}} is the node's name. */
    PATH,
    /** A size in bytes, as dd and fio write it: 4096, 4KiB, 4K, 4KB. */
    SIZE,
    /** A whole number. */
    COUNT,
    /** true or false. */
    FLAG,
    /** A duration (500ms, 10s) into a {@code _millis} field. */
    DURATION_MILLIS,
    /** A duration into a {@code _micros} field. */
    DURATION_MICROS,
    /**
     * One word of the proto enum's values, named without the enum's prefix, lower case, '-' for '_'
     * (LOCK_KIND_FCNTL is fcntl, LOCK_RELEASE_UNLOCK_EACH is unlock-each).
     */
    WORDS,
    /**
     * A list of such words, into a repeated enum field, stored in the enum's order; absent means
     * every word.
     */
    WORD_LIST,
    /** One of two words into a bool field: the first means false, the second true. */
    CHOICE
  }

  public WorkloadField {
    choices = choices == null ? List.of() : List.copyOf(choices);
  }

  static WorkloadField path(String yamlName, String defaultText) {
    return new WorkloadField(yamlName, yamlName, Type.PATH, defaultText, null, null);
  }

  static WorkloadField size(String yamlName, String protoName, String defaultText) {
    return new WorkloadField(yamlName, protoName, Type.SIZE, defaultText, null, null);
  }

  static WorkloadField count(String yamlName, long defaultValue) {
    return new WorkloadField(
        yamlName, yamlName, Type.COUNT, Long.toString(defaultValue), null, null);
  }

  static WorkloadField flag(String yamlName) {
    return new WorkloadField(yamlName, yamlName.replace('-', '_'), Type.FLAG, "false", null, null);
  }

  static WorkloadField millis(String yamlName, String defaultText) {
    return new WorkloadField(
        yamlName, yamlName + "_millis", Type.DURATION_MILLIS, defaultText, null, null);
  }

  static WorkloadField micros(String yamlName, String defaultText) {
    return new WorkloadField(
        yamlName, yamlName + "_micros", Type.DURATION_MICROS, defaultText, null, null);
  }

  static WorkloadField words(String yamlName, String defaultText, String noun) {
    return new WorkloadField(yamlName, yamlName, Type.WORDS, defaultText, noun, null);
  }

  static WorkloadField wordList(String yamlName, String noun) {
    return new WorkloadField(yamlName, yamlName, Type.WORD_LIST, null, noun, null);
  }

  static WorkloadField choice(
      String yamlName, String protoName, String noun, String falseWord, String trueWord) {
    return new WorkloadField(
        yamlName, protoName, Type.CHOICE, falseWord, noun, List.of(falseWord, trueWord));
  }

  /**
   * A value of this field's proto field as a scenario writes it: a size as 64KiB, a duration as
   * 500ms, an enum value as its word, a choice as its word; the scenario parser reads it back to
   * the same value.
   */
  public Object scenarioValue(Object protoValue) {
    return switch (type) {
      case SIZE -> sizeText(((Number) protoValue).longValue());
      case COUNT -> ((Number) protoValue).longValue();
      case DURATION_MILLIS -> durationText(((Number) protoValue).longValue() * 1000);
      case DURATION_MICROS -> durationText(((Number) protoValue).longValue());
      case WORDS -> wordOf((EnumValueDescriptor) protoValue);
      case WORD_LIST ->
          ((List<?>) protoValue).stream().map(v -> wordOf((EnumValueDescriptor) v)).toList();
      case CHOICE -> choices.get(Boolean.TRUE.equals(protoValue) ? 1 : 0);
      case PATH, FLAG -> protoValue;
    };
  }

  /** Bytes in the largest 1024-based unit that holds them whole: 64KiB, 4MiB, 1000. */
  static String sizeText(long bytes) {
    String[] units = {"TiB", "GiB", "MiB", "KiB"};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << (10 * (units.length - i));
      if (bytes != 0 && bytes % unit == 0) {
        return bytes / unit + units[i];
      }
    }
    return Long.toString(bytes);
  }

  /** Microseconds in the largest unit that holds them whole: 1h, 10m, 30s, 500ms, 50us. */
  static String durationText(long micros) {
    if (micros == 0) {
      return "0s";
    }
    long[] per = {3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L};
    String[] units = {"h", "m", "s", "ms"};
    for (int i = 0; i < per.length; i++) {
      if (micros % per[i] == 0) {
        return micros / per[i] + units[i];
      }
    }
    return micros + "us";
  }

  /** The words of a proto enum as a scenario writes them, in the enum's order. */
  public static List<String> wordsOf(EnumDescriptor e) {
    return e.getValues().stream()
        .filter(v -> v.getNumber() != 0)
        .map(WorkloadField::wordOf)
        .toList();
  }

  /** LOCK_RELEASE_UNLOCK_EACH of enum LockRelease is "unlock-each". */
  public static String wordOf(EnumValueDescriptor v) {
    String prefix = upperSnake(v.getType().getName()) + "_";
    String name = v.getName();
    if (name.startsWith(prefix)) {
      name = name.substring(prefix.length());
    }
    return name.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The value a word names, or null. */
  public static EnumValueDescriptor valueOf(EnumDescriptor e, String word) {
    return e.getValues().stream()
        .filter(v -> v.getNumber() != 0 && wordOf(v).equals(word))
        .findFirst()
        .orElse(null);
  }

  private static String upperSnake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }
}

package lockstep.coordinator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reads one YAML mapping field by field, so every error names the file and the full field path, and
 * fields nobody asked for are reported as unknown.
 */
final class YamlMapping {
  /** Linux PATH_MAX is 4096 with the root and the terminating NUL; leave the root room. */
  static final int MAX_PATH_BYTES = 3072;

  static final int MAX_NAME_BYTES = 255;
  private final JsonNode node;
  private final String path;
  private final String source;
  private final Set<String> known = new LinkedHashSet<>();
  private final Map<String, Object> used = new LinkedHashMap<>();

  YamlMapping(JsonNode node, String path, String source) {
    this.node = node;
    this.path = path;
    this.source = source;
    if (node == null || !node.isObject()) {
      throw error(path.isEmpty() ? "top level" : path, "must be a mapping of fields");
    }
  }

  Map<String, Object> used() {
    return used;
  }

  ScenarioException error(String field, String problem) {
    return new ScenarioException("scenario " + source + ": " + field + ": " + problem);
  }

  private String qualified(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private JsonNode get(String name) {
    known.add(name);
    JsonNode v = node.get(name);
    return v == null || v.isNull() ? null : v;
  }

  boolean has(String name) {
    return node.has(name) && !node.get(name).isNull();
  }

  String string(String name, String defaultValue) {
    JsonNode v = get(name);
    if (v == null) {
      if (defaultValue != null) {
        used.put(name, defaultValue);
      }
      return defaultValue;
    }
    if (!v.isValueNode() || v.isBoolean()) {
      throw error(qualified(name), "must be a text value");
    }
    used.put(name, v.asText());
    return v.asText();
  }

  String requiredString(String name) {
    String v = string(name, null);
    if (v == null || v.isBlank()) {
      throw error(qualified(name), "is required");
    }
    return v;
  }

  /**
   * A path template under the agent's root: relative, and not leaving the root after {@code ..} are
   * resolved (the agent checks again against its real root and symlinks).
   */
  String relativePath(String name, String defaultValue) {
    String text = string(name, defaultValue);
    if (text == null || text.isBlank()) {
      throw error(qualified(name), "is empty");
    }
    Path p;
    try {
      p = Path.of(text);
    } catch (InvalidPathException e) {
      throw error(qualified(name), "'" + Echo.value(text) + "' is not a valid path");
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_PATH_BYTES) {
      throw error(
          qualified(name),
          "'"
              + Echo.value(text)
              + "' is "
              + bytes.length
              + " bytes long; a path under the root"
              + " may have at most "
              + MAX_PATH_BYTES
              + " (PATH_MAX 4096 includes the root)");
    }
    for (Path part : p) {
      int n = part.toString().getBytes(StandardCharsets.UTF_8).length;
      if (n > MAX_NAME_BYTES) {
        throw error(
            qualified(name),
            "'"
                + Echo.value(text)
                + "' has a name of "
                + n
                + " bytes; a file name may have at most "
                + MAX_NAME_BYTES
                + " (NAME_MAX)");
      }
    }
    Path normal = p.normalize();
    if (p.isAbsolute() || normal.startsWith("..") || normal.toString().isEmpty()) {
      throw error(
          qualified(name),
          "'"
              + Echo.value(text)
              + "' must stay under the agent's --root (a relative path without leading ..)");
    }
    return text;
  }

  JsonNode node(String name) {
    return get(name);
  }

  boolean bool(String name, boolean defaultValue) {
    return read(
        name, defaultValue, JsonNode::isBoolean, "must be true or false", JsonNode::booleanValue);
  }

  long integer(String name, long defaultValue, long min, long max) {
    return read(
        name,
        defaultValue,
        JsonNode::isIntegralNumber,
        "must be a whole number",
        v -> {
          if (!v.canConvertToLong()) {
            throw error(
                qualified(name),
                Echo.value(v.asText()) + " is outside the allowed range " + min + " .. " + max);
          }
          long n = v.longValue();
          if (n < min || n > max) {
            throw error(qualified(name), n + " is outside the allowed range " + min + " .. " + max);
          }
          return n;
        });
  }

  /**
   * The field's value as {@code parse} reads it, once it {@code is} of its type (else refused: the
   * value {@code otherwise}), or {@code defaultValue}; either is recorded.
   */
  private <T> T read(
      String name,
      T defaultValue,
      Predicate<JsonNode> is,
      String otherwise,
      Function<JsonNode, T> parse) {
    JsonNode v = get(name);
    if (v != null && !is.test(v)) {
      throw error(qualified(name), "'" + Echo.value(v.asText()) + "' " + otherwise);
    }
    T value = v == null ? defaultValue : parse.apply(v);
    used.put(name, value);
    return value;
  }

  long size(String name, String defaultValue, long min, long max) {
    JsonNode v = get(name);
    String text = v == null ? defaultValue : v.asText();
    if (text == null) {
      throw error(qualified(name), "is required (a size such as 4KiB, 1MiB, 2GiB)");
    }
    if (v != null && v.isNumber() && v.longValue() < 0 || text.trim().startsWith("-")) {
      throw error(qualified(name), "'" + Echo.value(text) + "' is negative");
    }
    long bytes = Sizes.parse(text);
    if (bytes < 0) {
      throw error(
          qualified(name),
          "'" + Echo.value(text) + "' is not a size (use e.g. 4KiB, 1MiB, 2GiB, or bytes)");
    }
    if (bytes < min || bytes > max) {
      throw error(
          qualified(name),
          "'"
              + Echo.value(text)
              + "' is outside the allowed range "
              + Sizes.format(min)
              + " .. "
              + Sizes.format(max));
    }
    used.put(name, text);
    return bytes;
  }

  Duration duration(String name, String defaultValue, Duration min, Duration max) {
    String text = string(name, defaultValue);
    Duration d = Durations.parse(text);
    if (d == null) {
      throw error(
          qualified(name),
          "'" + Echo.value(text) + "' is not a duration (use e.g. 500ms, 30s, 10m)");
    }
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw error(
          qualified(name),
          "'" + Echo.value(text) + "' is outside the allowed range " + min + " .. " + max);
    }
    return d;
  }

  List<String> stringList(String name) {
    JsonNode v = get(name);
    if (v == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    if (v.isTextual()) {
      for (String s : v.asText().split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
      return out;
    }
    if (!v.isArray()) {
      throw error(qualified(name), "must be a list");
    }
    for (JsonNode e : v) {
      if (!e.isValueNode()) {
        throw error(qualified(name), "must be a list of text values");
      }
      out.add(e.asText());
    }
    used.put(name, out);
    return out;
  }

  /** Fails on any field that was never asked for. */
  void rejectUnknown() {
    var it = node.fieldNames();
    while (it.hasNext()) {
      String f = it.next();
      if (!known.contains(f)) {
        throw error(
            qualified(Echo.value(f)), "unknown field (known: " + String.join(", ", known) + ")");
      }
    }
  }
}

package lockstep.coordinator.scenario;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The YAML files the CLI reads (scenarios, inventories): one error line naming the file, and the
 * line and column.
 */
public final class YamlFiles {
  // A key written twice is refused: silently keeping the last would run something else
  // than the file seems to say.
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private YamlFiles() {}

  /** The file's text; {@code kind} ("scenario", "inventory") starts the error message. */
  public static String read(Path file, String kind) {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new ScenarioException(
            kind + " " + file + ": is a directory; give the path of a " + kind + " YAML file");
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ScenarioException(readError(file, kind, e));
    }
    return utf8(bytes, file, kind);
  }

  /** One line for a file that could not be read, naming the file and what to do. */
  static String readError(Path file, String kind, IOException e) {
    if (e instanceof NoSuchFileException) {
      return kind + " " + file + ": file not found";
    }
    if (e instanceof AccessDeniedException) {
      return kind
          + " "
          + file
          + ": permission denied: this user cannot read it; make it readable (chmod o+r, or"
          + " run as its owner) or give a copy you can read";
    }
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return kind + " " + file + ": cannot be read: " + why;
  }

  /** The bytes as UTF-8 text; anything else is refused naming the first bad byte's position. */
  static String utf8(byte[] bytes, Path file, String kind) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = decoder.decode(in, out, true);
    if (r.isError()) {
      int at = in.position();
      long line = 1;
      for (int i = 0; i < at; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new ScenarioException(
          String.format(
              "%s %s: not UTF-8 text: byte 0x%02x at offset %d (line %d) is not valid UTF-8;"
                  + " save the file as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8), or check that it is"
                  + " the %s you meant",
              kind, file, bytes[at] & 0xff, at, line, kind));
    }
    decoder.flush(out);
    out.flip();
    String text = out.toString();
    // a byte-order mark is not part of the YAML
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /**
   * The YAML tree (null for an empty document); {@code where} ("scenario x.yaml") starts the error
   * message.
   */
  public static JsonNode parse(String yaml, String where) {
    try {
      return YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String line = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      String why = e.getOriginalMessage();
      if (why != null && why.startsWith("while scanning a block scalar")) {
        // an unquoted expectation such as efficiency: >= 0.8 ('>' starts a folded block)
        throw new ScenarioException(
            where
                + ": invalid YAML"
                + line
                + ": a value that begins with '>' or '|' must be quoted, as in efficiency: \">="
                + " 0.8\"");
      }
      throw new ScenarioException(where + ": invalid YAML" + line + ": " + Echo.value(why));
    }
  }
}

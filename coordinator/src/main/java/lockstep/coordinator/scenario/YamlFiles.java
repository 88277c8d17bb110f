package lockstep.coordinator.scenario;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
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
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ScenarioException(kind + " " + file + ": file not found");
    } catch (IOException e) {
      throw new ScenarioException(kind + " " + file + ": cannot be read: " + e.getMessage());
    }
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
      throw new ScenarioException(
          where + ": invalid YAML" + line + ": " + Echo.value(e.getOriginalMessage()));
    }
  }
}

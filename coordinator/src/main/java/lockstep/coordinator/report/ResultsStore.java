package lockstep.coordinator.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.csv.CsvExport;
import lockstep.coordinator.report.html.RunHtmlReport;

/**
 * Runs on disk: OUT/RUN-ID/ holds run.json (everything; docs/results.md), steps.csv, series.csv and
 * report.html, the last three rebuilt from run.json by `lockstep report`.
 */
public final class ResultsStore {
  public static final String RUN_FILE = "run.json";
  public static final String REPORT_FILE = "report.html";
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Path out;

  public ResultsStore(Path out) {
    this.out = out;
  }

  /** Writes run.json, the CSV files and report.html; returns run.json's path. */
  public Path save(RunRecord run) {
    Path dir = out.resolve(run.runId());
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(RUN_FILE);
      Path tmp = dir.resolve(RUN_FILE + ".tmp");
      JSON.writeValue(tmp.toFile(), run);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      writeDerived(run, dir);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write results to " + dir + ": " + e.getMessage(), e);
    }
  }

  /** steps.csv, series.csv and report.html next to run.json. */
  public static void writeDerived(RunRecord run, Path dir) throws IOException {
    CsvExport.write(run, dir);
    writeAtomically(dir.resolve(REPORT_FILE), RunHtmlReport.render(run));
  }

  public static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A saved run.json of today's schema or an earlier one ({@link RunJsonV1}); null if empty. */
  public static RunRecord load(Path runJson) throws IOException {
    return read(JSON.readTree(runJson.toFile()), runJson.toString());
  }

  /** A run.json's text, of today's schema or an earlier one, as a record; null if empty. */
  public static RunRecord read(String json, String source) throws IOException {
    return read(JSON.readTree(json), source);
  }

  private static RunRecord read(JsonNode tree, String source) throws IOException {
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      return null;
    }
    return JSON.treeToValue(RunJsonV1.upgraded(tree, source), RunRecord.class);
  }

  public static ObjectMapper json() {
    return JSON;
  }
}

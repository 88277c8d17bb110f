package lockstep.coordinator.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.expect.ExpectationText;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.csv.CsvExport;
import lockstep.coordinator.report.html.RunHtmlReport;

/** Writes one output format of a run: where `lockstep report` sends text, html, json and csv. */
public final class ReportOutputs {
  /** The formats `lockstep report --format` knows. */
  public enum Format {
    text,
    html,
    json,
    csv
  }

  private final PrintStream terminal;

  public ReportOutputs(PrintStream terminal) {
    this.terminal = terminal;
  }

  /**
   * @param runDir the run's directory (default place for html and csv)
   * @param output a file (text, json, html) or directory (csv) to write instead; null for the
   *     default
   */
  public void write(RunRecord run, Path runDir, Format format, Path output) throws IOException {
    switch (format) {
      case text -> {
        if (output == null) {
          TextReport.print(run, terminal);
          ExpectationText.print(run.expectations(), terminal);
        } else {
          try (PrintStream ps =
              new PrintStream(Files.newOutputStream(output), true, StandardCharsets.UTF_8)) {
            TextReport.print(run, ps);
            ExpectationText.print(run.expectations(), ps);
          }
          terminal.println(output);
        }
      }
      case json -> {
        String json = ResultsStore.json().writeValueAsString(run);
        if (output == null) {
          terminal.println(json);
        } else {
          ResultsStore.writeAtomically(output, json + "\n");
          terminal.println(output);
        }
      }
      case html -> {
        Path file = output == null ? runDir.resolve(ResultsStore.REPORT_FILE) : output;
        ResultsStore.writeAtomically(file, RunHtmlReport.render(run));
        terminal.println(file);
      }
      case csv -> {
        Path dir = output == null ? runDir : output;
        Files.createDirectories(dir);
        CsvExport.write(run, dir).forEach(terminal::println);
      }
      default -> throw new IllegalStateException("unknown format " + format);
    }
  }
}

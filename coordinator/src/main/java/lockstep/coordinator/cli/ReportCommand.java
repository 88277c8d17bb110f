package lockstep.coordinator.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ReportOutputs;
import lockstep.coordinator.report.RunLocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep report RUN [--format text|html|json|csv]}: any output, rebuilt from run.json. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description =
        "Rebuild a run's report from its run.json: text (terminal), html (report.html), json, or"
            + " csv (steps.csv, series.csv).")
final class ReportCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "RUN",
      description = "A run id under --out, a run directory, or a run.json file.")
  String run;

  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "FORMAT",
      description = "text, html, json or csv (default: ${DEFAULT-VALUE}).")
  ReportOutputs.Format format;

  @Option(
      names = "--out",
      defaultValue = "results",
      paramLabel = "DIR",
      description = "Where run ids are looked up (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "PATH",
      description =
          "Write here instead: a file for text, json and html; a directory for csv. "
              + "Defaults: text and json to the terminal, html and csv into the run's directory.")
  Path output;

  @Override
  public Integer call() throws IOException {
    RunLocator locator = new RunLocator(out);
    Path runJson = locator.find(run);
    RunRecord record = RunLocator.load(runJson);
    PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    new ReportOutputs(stdout).write(record, runJson.getParent(), format, output);
    return 0;
  }
}

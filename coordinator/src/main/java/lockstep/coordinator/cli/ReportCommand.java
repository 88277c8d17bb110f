package lockstep.coordinator.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.coordinator.expect.Expectation;
import lockstep.coordinator.expect.ExpectationJudge;
import lockstep.coordinator.expect.ExpectationParser;
import lockstep.coordinator.expect.PlanFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ReportOutputs;
import lockstep.coordinator.report.RunLocator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep report RUN [--format text|html|json|csv] [--expect FIGURE=COMPARISON ...]
 * [--junit FILE]}: any output, rebuilt from run.json; with --expect or --junit the run is judged
 * again (its recorded expectations and the given ones) and exits as {@code run} would.
 */
@Command(
    name = "report",
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

  @CommandLine.Mixin SavedRunsOption runs = new SavedRunsOption();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "PATH",
      description =
          "Write here instead: a file for text, json and html; a directory for csv. "
              + "Defaults: text and json to the terminal, html and csv into the run's directory.")
  Path output;

  @CommandLine.Mixin ExpectOptions expectations = new ExpectOptions();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    RunLocator locator = new RunLocator(runs.out);
    Path runJson = locator.find(run);
    RunRecord record = RunLocator.load(runJson);
    boolean judge = expectations.given();
    if (judge) {
      List<Expectation> list =
          expectations.read(ExpectationParser.recorded(record), PlanFigures.of(record));
      record = ExpectationJudge.judged(record, list);
    }
    PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    new ReportOutputs(stdout).write(record, runJson.getParent(), format, output);
    if (!judge) {
      return 0;
    }
    expectations.writeJUnit(record);
    if (!ExpectationJudge.judgeable(record)) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "lockstep: run " + record.runId() + " " + record.status() + "; no expectation judged");
      err.flush();
      return LockstepCli.EXIT_RUN_FAILED;
    }
    return ExpectOptions.exitCode(record, spec.commandLine().getErr());
  }
}

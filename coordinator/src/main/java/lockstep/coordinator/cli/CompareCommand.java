package lockstep.coordinator.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.RunLocator;
import lockstep.coordinator.report.compare.CompareHtmlReport;
import lockstep.coordinator.report.compare.CompareJson;
import lockstep.coordinator.report.compare.CompareTextReport;
import lockstep.coordinator.report.compare.RunComparison;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep compare RUN_A RUN_B [--html FILE] [--json FILE]}: two runs side by side with B /
 * A.
 */
@Command(
    name = "compare",
    description =
        "Compare two runs (e.g. plock_rate_limit 100 vs 10000): per node and aggregate, B / A.")
final class CompareCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "RUN_A",
      description = "The first run (id under --out, run directory or run.json).")
  String runA;

  @Parameters(index = "1", paramLabel = "RUN_B", description = "The second run.")
  String runB;

  @CommandLine.Mixin SavedRunsOption runs = new SavedRunsOption();

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Also write the comparison as a self-contained HTML report.")
  Path html;

  @Option(
      names = "--json",
      paramLabel = "FILE",
      description =
          "Also write the comparison as JSON: rows, and per step B / A with its 95%% interval and"
              + " the call (different, within-noise, too-few-repeats).")
  Path json;

  @Override
  public Integer call() throws IOException {
    RunLocator locator = new RunLocator(runs.out);
    RunComparison c = RunComparison.of(locator.load(runA), locator.load(runB));
    CompareTextReport.print(c, System.out);
    if (html != null) {
      ResultsStore.writeAtomically(html, CompareHtmlReport.render(c));
      System.out.println("\nHTML: " + html);
    }
    if (json != null) {
      ResultsStore.writeAtomically(json, CompareJson.render(c));
      System.out.println("JSON: " + json);
    }
    return 0;
  }
}

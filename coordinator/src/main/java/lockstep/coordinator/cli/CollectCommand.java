package lockstep.coordinator.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.collect.RunCollector;
import lockstep.coordinator.collect.RunListing;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.TextReport;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep collect --agents H:P,... | --inventory FILE [RUN]}: without RUN, the runs each
 * agent holds; with RUN, each node's result of it, written as OUT/RUN/run.json (status "collected")
 * with the usual reports.
 */
@Command(
    name = "collect",
    description =
        "List the runs the agents hold, or fetch RUN's results that a coordinator that died could"
            + " not save.")
final class CollectCommand extends OnAgents {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "RUN",
      description = "Run id to fetch (as `lockstep run` printed it).")
  String runId;

  @CommandLine.Mixin SavedResultsOption results = new SavedResultsOption();

  @Override
  void check() {
    if (runId != null) {
      checkRunId(runId);
    }
    Path saved = runId == null ? null : results.out.resolve(runId).resolve(ResultsStore.RUN_FILE);
    if (saved != null && Files.exists(saved)) {
      throw new ScenarioException(
          saved
              + " exists already (its coordinator saved the run); give another --out to collect it"
              + " again");
    }
  }

  @Override
  int on(AgentEnsemble agents) {
    RunCollector collector = new RunCollector(agents);
    if (runId == null) {
      var surveyed = collector.survey();
      RunListing.print(
          agents.agents().stream()
              .filter(surveyed.values()::containsKey)
              .map(surveyed.values()::get)
              .toList(),
          System.out);
      surveyed.errorMessages().forEach(m -> System.err.println("lockstep: " + m));
      return surveyed.ok() ? 0 : LockstepCli.EXIT_RUN_FAILED;
    }
    RunRecord run = collector.collect(runId);
    Path file = new ResultsStore(results.out).save(run);
    TextReport.print(run, System.out);
    run.errors().forEach(this::printError);
    System.out.printf(
        "%nResults: %s%nReport:  %s%n", file, file.resolveSibling(ResultsStore.REPORT_FILE));
    return 0;
  }
}

package lockstep.coordinator.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.model.RunRecord;

/**
 * Finds a saved run from what a user types: a run id under the results directory, a run directory,
 * or a run.json file. Loaded runs are analysed again with this version's analysis.
 */
public final class RunLocator {
  private final Path resultsDir;

  public RunLocator(Path resultsDir) {
    this.resultsDir = resultsDir;
  }

  /** The run.json that {@code run} names. */
  public Path find(String run) {
    Path given = Path.of(run);
    if (Files.isRegularFile(given)) {
      return given;
    }
    if (Files.isDirectory(given) && Files.isRegularFile(given.resolve(ResultsStore.RUN_FILE))) {
      return given.resolve(ResultsStore.RUN_FILE);
    }
    Path underOut = resultsDir.resolve(run).resolve(ResultsStore.RUN_FILE);
    if (!run.contains("/") && Files.isRegularFile(underOut)) {
      return underOut;
    }
    throw new ReportInputException(
        "run '"
            + run
            + "': no such run id under "
            + resultsDir
            + " and no run directory or run.json at that path");
  }

  public RunRecord load(String run) {
    return load(find(run));
  }

  public static RunRecord load(Path runJson) {
    RunRecord r;
    try {
      r = ResultsStore.load(runJson);
    } catch (JsonProcessingException e) {
      throw new ReportInputException(
          runJson + ": not a Lockstep run.json: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ReportInputException(runJson + ": cannot be read: " + e.getMessage());
    }
    if (r == null
        || r.schema() == null
        || !r.schema().startsWith("lockstep.run/")
        || r.runId() == null
        || r.steps() == null
        || r.agents() == null) {
      throw new ReportInputException(
          runJson
              + ": not a Lockstep run.json (schema "
              + RunRecord.SCHEMA
              + " or "
              + RunJsonV1.SCHEMA
              + " expected)");
    }
    return RunAnalyzer.analysed(r);
  }
}

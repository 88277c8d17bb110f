package lockstep.coordinator.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import lockstep.coordinator.expect.Expectation;
import lockstep.coordinator.expect.ExpectationJudge;
import lockstep.coordinator.expect.ExpectationParser;
import lockstep.coordinator.expect.JUnitXml;
import lockstep.coordinator.expect.PlanFigures;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Option;

/**
 * {@code --expect FIGURE=COMPARISON} (repeatable) and {@code --junit FILE}, shared by {@code run}
 * and {@code report}: the expectations are read before anything else happens, the JUnit file is
 * written whatever the outcome, and broken expectations end in {@link
 * LockstepCli#EXIT_EXPECTATION_BROKEN}.
 */
final class ExpectOptions {
  @Option(
      names = "--expect",
      paramLabel = "FIGURE=COMPARISON",
      description =
          "An expectation on the run's figures, e.g. efficiency='>= 0.8', skew='<= 5ms',"
              + " coherence-errors='== 0' (repeatable; adds to or replaces the scenario's"
              + " expect:). Broken ones exit "
              + LockstepCli.EXIT_EXPECTATION_BROKEN
              + ".")
  List<String> expect;

  @Option(
      names = "--junit",
      paramLabel = "FILE",
      description =
          "Write the expectations as JUnit XML (one test case each) for Jenkins or GitLab.")
  Path junit;

  /** Whether either flag was given. */
  boolean given() {
    return expect != null && !expect.isEmpty() || junit != null;
  }

  /**
   * {@code base} with the command line's expectations read against {@code plan}; refusals and a
   * --junit file in a directory that does not exist are usage errors, before any agent is called.
   */
  List<Expectation> read(List<Expectation> base, PlanFigures plan) {
    List<Expectation> out =
        ExpectationParser.merge(base, ExpectationParser.commandLine(expect, plan));
    if (junit != null) {
      Path dir = junit.toAbsolutePath().getParent();
      if (Files.isDirectory(junit) || dir == null || !Files.isDirectory(dir)) {
        throw new ScenarioException(
            "--junit "
                + junit
                + ": "
                + (Files.isDirectory(junit)
                    ? "is a directory; give a file name"
                    : "its directory does not exist"));
      }
    }
    return out;
  }

  /** The JUnit file of a judged run record, if --junit was given. */
  void writeJUnit(RunRecord run) {
    if (junit != null) {
      JUnitXml.write(junit, JUnitXml.of(run));
    }
  }

  /** The JUnit file of a run that failed before it had a record, if --junit was given. */
  void writeJUnit(String scenario, List<Expectation> expectations, RuntimeException failure) {
    if (junit != null) {
      List<String> lines =
          failure instanceof RunFailedException rf
              ? rf.lines()
              : List.of(String.valueOf(failure.getMessage()));
      JUnitXml.write(junit, JUnitXml.ofFailure(scenario, expectations, lines, Instant.now()));
    }
  }

  /**
   * Each broken expectation as one line on {@code err}; {@link LockstepCli#EXIT_EXPECTATION_BROKEN}
   * if there is one, else 0.
   */
  static int exitCode(RunRecord run, PrintWriter err) {
    for (ExpectationOutcome o : run.expectations()) {
      if (o.broken()) {
        err.println("lockstep: " + Echo.escaped(o.message()));
      }
    }
    err.flush();
    return ExpectationJudge.broken(run) > 0 ? LockstepCli.EXIT_EXPECTATION_BROKEN : 0;
  }
}

package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.expect.ExpectationJudge;
import lockstep.coordinator.expect.ExpectationParser;
import lockstep.coordinator.expect.PlanFigures;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.report.ResultsStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --expect} and {@code --junit} through the command line: a bad expectation is one line and
 * exit 2 before any agent is called (the agent given does not exist: calling it would be exit 1);
 * {@code report --expect} judges a saved run again, exit 3 when an expectation breaks.
 */
class ExpectationsCliTest {
  @TempDir Path tmp;

  private Path scenario(String yaml) throws Exception {
    return Files.writeString(tmp.resolve("s.yaml"), yaml);
  }

  private Cli runWith(String yaml, String... more) throws Exception {
    String[] args = new String[4 + more.length];
    args[0] = "run";
    args[1] = scenario(yaml).toString();
    args[2] = "--agents";
    args[3] = "127.0.0.1:1";
    System.arraycopy(more, 0, args, 4, more.length);
    return Cli.run(args);
  }

  /** Exit 2 and this one line on stderr. */
  private static void assertUsageError(Cli c, String line) {
    assertThat(c.exitCode()).isEqualTo(LockstepCli.EXIT_USAGE);
    assertThat(c.err()).isEqualTo(line + System.lineSeparator());
  }

  @Test
  void aBadCommandLineExpectationIsOneLineAndExit2BeforeAnyAgentIsCalled() throws Exception {
    Cli c =
        runWith(
            "name: x\nworkload: {type: write, size: 1MiB}\n",
            "--expect",
            "skew<=5ms",
            "--expect",
            "efficiency=>= 0.8x");
    assertUsageError(
        c, "lockstep: --expect efficiency: '>= 0.8x': a ratio takes no unit or %, not 'x'");
  }

  @Test
  void aScenarioExpectationThePlanCannotProduceIsOneLineAndExit2() throws Exception {
    Path s =
        scenario(
            "name: x\nplan: [all]\nexpect: {efficiency: \">= 0.8\"}\n"
                + "workload: {type: write, size: 1MiB}\n");
    Cli c = Cli.run("run", s.toString(), "--agents", "127.0.0.1:1");
    assertUsageError(
        c,
        "lockstep: scenario "
            + s
            + ": expect.efficiency: needs each node alone and the nodes together, and plan"
            + " [all] runs no node alone (no solo step); use plan: [solo, all]");
    Path all =
        Files.writeString(
            tmp.resolve("all.yaml"),
            "name: x\n"
                + "plan: [all]\n"
                + "expect: {skew: \"<= 5ms\"}\n"
                + "workload: {type: write, size: 1MiB}\n");
    Cli cli =
        Cli.run("run", all.toString(), "--agents", "127.0.0.1:1", "--expect", "solo-throughput>=1");
    assertUsageError(
        cli,
        "lockstep: --expect solo-throughput: needs each node alone, and plan [all] runs no"
            + " node alone (no solo step); use plan: [solo, all]");
  }

  @Test
  void aJUnitFileWhoseDirectoryIsMissingIsAUsageError() throws Exception {
    Path missing = tmp.resolve("no/such/dir/junit.xml");
    Cli c =
        runWith("name: x\nworkload: {type: write, size: 1MiB}\n", "--junit", missing.toString());
    assertUsageError(c, "lockstep: --junit " + missing + ": its directory does not exist");
  }

  @Test
  void aRunThatCannotStartStillWritesItsJUnitFileWithEachExpectationAnError() throws Exception {
    Path junit = tmp.resolve("junit.xml");
    Cli c =
        runWith(
            "name: x\nexpect: {skew: \"<= 5ms\"}\nworkload: {type: write, size: 1MiB}\n",
            "--expect",
            "efficiency>=0.8",
            "--junit",
            junit.toString(),
            "--out",
            tmp.resolve("results").toString());
    assertThat(c.exitCode()).isEqualTo(LockstepCli.EXIT_RUN_FAILED);
    String xml = Files.readString(junit);
    assertThat(xml)
        .contains("<testsuite errors=\"2\" failures=\"0\"")
        .contains("name=\"skew &lt;= 5 ms\"")
        .contains("name=\"efficiency &gt;= 0.80\"")
        .contains(
            "<error message=\"expect skew &lt;= 5 ms: not judged: the run failed: agent"
                + " 127.0.0.1:1: describe: agent unreachable");
  }

  private Path saved(RunRecord run) {
    return new ResultsStore(tmp.resolve("results")).save(run);
  }

  @Test
  void reportJudgesASavedRunAgainWithTheSameExitCodes() throws Exception {
    RunRecord run = TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {600, 400});
    // run.json records one expectation that held; the report's --expect adds one that breaks
    RunRecord judged =
        ExpectationJudge.judged(
            run, List.of(ExpectationParser.parse("skew", "<= 5ms", PlanFigures.of(run))));
    Path runJson = saved(judged);
    Path junit = tmp.resolve("report.xml");
    Cli broken = Cli.report(runJson, "--expect", "efficiency>=0.8", "--junit", junit.toString());
    assertThat(broken.exitCode()).isEqualTo(LockstepCli.EXIT_EXPECTATION_BROKEN).isEqualTo(3);
    assertThat(broken.err())
        .isEqualTo(
            "lockstep: expect efficiency >= 0.80: measured 0.50 (lowest node2 0.40)"
                + System.lineSeparator());
    assertThat(broken.out())
        .contains("Expectations: 1 of 2 held, 1 broken")
        .contains("  held    expect skew <= 5 ms: measured 1.000 ms")
        .contains("  BROKEN  expect efficiency >= 0.80: measured 0.50 (lowest node2 0.40)");
    assertThat(Files.readString(junit))
        .contains("tests=\"2\"")
        .contains("failures=\"1\"")
        .contains("<failure message=\"expect efficiency &gt;= 0.80: measured 0.50");
    // the saved run.json is left as it was
    assertThat(ResultsStore.load(runJson).expectations()).hasSize(1);

    Cli held = Cli.report(runJson, "--expect", "efficiency>=0.5");
    assertThat(held.exitCode()).as(held.err()).isZero();
    assertThat(held.out()).contains("Expectations: all 2 held");

    Cli json = Cli.report(runJson, "--format", "json", "--expect", "node-efficiency>=0.5");
    assertThat(json.exitCode()).isEqualTo(3);
    JsonNode tree = new ObjectMapper().readTree(json.out());
    assertThat(tree.get("expectations"))
        .extracting(e -> e.get("figure").asText() + " " + e.get("status").asText())
        .containsExactly("skew held", "node-efficiency broken");
    assertThat(tree.at("/expectations/1/node").asText()).isEqualTo("node2");
    assertThat(tree.at("/expectations/1/measured").asDouble()).isEqualTo(0.4);

    Cli plain = Cli.report(runJson);
    assertThat(plain.exitCode()).as("without --expect or --junit nothing is judged").isZero();
    assertThat(plain.out()).contains("Expectations: all 1 held");
  }

  @Test
  void reportRefusesAnExpectationTheSavedRunCannotHaveProducedAndJudgesNoFailedRun()
      throws Exception {
    RunRecord run = TestRuns.soloThenAll(new double[] {1000}, new double[] {600});
    Path runJson = saved(run);
    Cli ping = Cli.report(runJson, "--expect", "coherence-errors==0");
    assertUsageError(
        ping,
        "lockstep: --expect coherence-errors: workload lock-files does not check coherence"
            + " (only ping-pong with io: read-write does)");
    RunRecord failed =
        TestRuns.copy(run)
            .named("r-failed", run.name())
            .ended(RunStatus.FAILED, "node1: prepare: EACCES")
            .build();
    Cli c = Cli.report(saved(failed), "--expect", "skew<=1s");
    assertThat(c.exitCode()).isEqualTo(LockstepCli.EXIT_RUN_FAILED);
    assertThat(c.err())
        .isEqualTo("lockstep: run r-failed failed; no expectation judged" + System.lineSeparator());
    assertThat(c.out()).contains("error   expect skew <= 1 s: not judged: the run failed");
  }
}

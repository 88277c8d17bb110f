package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.it.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input ends as one clear line and the documented exit code, never a stack trace. */
class LockstepCliTest {
  @TempDir Path tmp;

  record Outcome(int code, String err) {}

  private Outcome run(String... args) {
    Cli cli = Cli.run(args);
    return new Outcome(cli.exitCode(), cli.err());
  }

  private static final String WRITE = "name: x\nworkload: {type: write, size: 1MiB}\n";

  private Path scenario(String yaml) throws Exception {
    return Files.writeString(tmp.resolve("s.yaml"), yaml);
  }

  /** {@code lockstep run} of a 1 MiB write scenario with {@code options}. */
  private Outcome runWrite(String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of("run", scenario(WRITE).toString()));
    args.addAll(List.of(options));
    return run(args.toArray(String[]::new));
  }

  @Test
  void aBadScenarioFieldIsOneLineAndExit2() throws Exception {
    Path s = scenario("name: x\nworkload: {type: write, size: -1}\n");
    Outcome o = run("run", s.toString(), "--agents", "127.0.0.1:1");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err())
        .isEqualTo(
            "lockstep: scenario "
                + s
                + ": workload.size: '-1' is negative"
                + System.lineSeparator());
  }

  /** COMMAND RUN without --agents or --inventory: exit 2, one line saying what to give. */
  private void assertAsksForAgents(String command) {
    Outcome none = run(command, "20261130-134608-demo-a2c7");
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err())
        .isEqualTo(
            "lockstep: give --agents HOST:PORT,... or --inventory FILE" + System.lineSeparator());
  }

  @Test
  void collectWithoutAgentsOrWithABadRunIdIsOneLineAndExit2() throws Exception {
    assertAsksForAgents("collect");
    Outcome bad = run("collect", "--agents", "127.0.0.1:1", "../elsewhere");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err())
        .isEqualTo(
            "lockstep: RUN: '../elsewhere' is not a run id (such as 20261130-134608-demo-a2c7)"
                + System.lineSeparator());
    Path saved = Files.createDirectories(tmp.resolve("results/r1"));
    Files.writeString(saved.resolve("run.json"), "{}");
    Outcome exists =
        run("collect", "--agents", "127.0.0.1:1", "--out", tmp.resolve("results").toString(), "r1");
    assertThat(exists.code()).isEqualTo(2);
    assertThat(exists.err()).contains(saved.resolve("run.json") + " exists already");
    assertThat(Files.readString(saved.resolve("run.json"))).isEqualTo("{}");
  }

  @Test
  void abortWithoutAgentsOrWithABadRunIdIsExit2AndAnUnreachableAgentIsOneLineAndExit1() {
    assertAsksForAgents("abort");
    Outcome bad = run("abort", "--agents", "127.0.0.1:1", ".hidden");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("lockstep: RUN: '.hidden' is not a run id");
    Outcome unreachable = run("abort", "--agents", "127.0.0.1:1", "20261130-134608-demo-a2c7");
    assertThat(unreachable.code()).isEqualTo(1);
    assertThat(unreachable.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("lockstep: agent 127.0.0.1:1: describe: agent unreachable");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        "0s   | lockstep: --lease: lease 0 ms is outside 3000..600000 ms",
        "11m  | lockstep: --lease: lease 660000 ms is outside 3000..600000 ms",
        "soon | lockstep: --lease: 'soon' is not a duration such as 15s or 2m"
      })
  void anUnboundedOrBadLeaseIsOneLineAndExit2(String lease, String line) throws Exception {
    Outcome o = runWrite("--agents", "127.0.0.1:1", "--lease", lease);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).isEqualTo(line + System.lineSeparator());
  }

  @Test
  void noAgentsIsAUsageError() throws Exception {
    Outcome o = runWrite();
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("no agents: give --agents HOST:PORT");
  }

  @Test
  void aMalformedAgentAddressIsNamed() throws Exception {
    Outcome o = runWrite("--agents", "127.0.0.1");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("agent address '127.0.0.1' (from --agents) is not HOST:PORT");
  }

  @Test
  void anUnreachableAgentIsNamedAndTheRunFails() throws Exception {
    Path out = tmp.resolve("results");
    Outcome o = runWrite("--agents", "127.0.0.1:1", "--out", out.toString());
    assertThat(o.code()).isEqualTo(1);
    assertThat(o.err().lines())
        .singleElement()
        .asString()
        .startsWith("lockstep: agent 127.0.0.1:1: describe: agent unreachable");
    assertThat(out).doesNotExist();
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Outcome o = run("run", "--agentz", "x");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).startsWith("lockstep: ").doesNotContain("Exception");
  }

  @Test
  void helpExitsZero() {
    assertThat(run("--help").code()).isZero();
    assertThat(run("run", "--help").code()).isZero();
  }
}

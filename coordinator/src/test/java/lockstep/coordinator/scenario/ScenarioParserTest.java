package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import lockstep.agent.v1.LockKind;
import lockstep.coordinator.expect.Expectation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScenarioParserTest {
  private final ScenarioParser parser = new ScenarioParser();

  private Scenario parse(String yaml) {
    return parser.parse(yaml, "t.yaml");
  }

  @Test
  void readsTheOcfs2Seed() {
    Scenario s =
        parse(
            """
            name: two-node-dd
            agents: [orca:7070, porpoise:7070]
            plan: [solo, all]
            workload: {type: write, file: "testFile.{node}", block-size: 4KiB, size: 2GiB, fdatasync: true}
            """);
    assertThat(s.agents()).containsExactly("orca:7070", "porpoise:7070");
    assertThat(s.plan()).containsExactly(PlanStep.SOLO, PlanStep.ALL);
    assertThat(s.workload().getWrite().getBlockSizeBytes()).isEqualTo(4096);
    assertThat(s.workload().getWrite().getSizeBytes()).isEqualTo(2L << 30);
    assertThat(s.workload().getWrite().getFdatasync()).isTrue();
    assertThat(s.kind().unit()).isEqualTo("MB/s");
  }

  @Test
  void readsTheGfsSeedWithDefaults() {
    Scenario s =
        parse(
            """
            name: plock-rate
            plan: [all]
            workload: {type: lock-files, processes: 10, files: 1000, lock: fcntl}
            """);
    assertThat(s.agents()).isEmpty();
    assertThat(s.workload().getLockFiles().getProcesses()).isEqualTo(10);
    assertThat(s.workload().getLockFiles().getLock()).isEqualTo(LockKind.LOCK_KIND_FCNTL);
    assertThat(s.workload().getLockFiles().getDir()).isEqualTo("lock-files.{node}");
    assertThat(s.kind().unit()).isEqualTo("locks/s");
    assertThat(s.timeout().toMinutes()).isEqualTo(10);
  }

  @Test
  void instrumentationIsOnUnlessALockWorkloadTurnsItOff() {
    assertThat(
            parse("name: x\nworkload: {type: ping-pong, file: p}")
                .workload()
                .getInstrumentationOff())
        .isFalse();
    Scenario off = parse("name: x\nworkload: {type: ping-pong, file: p, instrumentation: false}");
    assertThat(off.workload().getInstrumentationOff()).isTrue();
    assertThat(off.workload().getPingPong().getFile()).isEqualTo("p");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "invalid yaml       | 'name: x\\n"
            + "workload: {type: write'                                  | t.yaml: invalid YAML at"
            + " line",
        "no name            | 'workload: {type: write, size: 1MiB}'                              |"
            + " t.yaml: name: is required",
        "unknown type       | 'name: x\\n"
            + "workload: {type: fsync-storm}'                            | workload.type: unknown"
            + " workload type 'fsync-storm'",
        "unknown field      | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, blocksize: 4KiB}'     | workload.blocksize:"
            + " unknown field",
        "unknown top field  | 'name: x\\n"
            + "agnets: [a:1]\\n"
            + "workload: {type: write, size: 1MiB}'      | agnets: unknown field",
        "negative size      | 'name: x\\n"
            + "workload: {type: write, size: -5}'                        | workload.size: '-5' is"
            + " negative",
        "absurd size        | 'name: x\\n"
            + "workload: {type: write, size: 900TiB}'                    | workload.size:"
            + " 989560464998400 bytes is above the limit of 4 TiB",
        "not a size         | 'name: x\\n"
            + "workload: {type: write, size: lots}'                      | workload.size: 'lots' is"
            + " not a size",
        "missing size       | 'name: x\\n"
            + "workload: {type: write}'                                  | workload.size: is"
            + " required",
        "absurd processes   | 'name: x\\n"
            + "workload: {type: lock-files, processes: 100000}'         | workload.processes:"
            + " 100000 is outside",
        "bad lock           | 'name: x\\n"
            + "workload: {type: lock-files, lock: posix}'              | workload.lock: unknown"
            + " lock kind 'posix'",
        "bad plan           | 'name: x\\n"
            + "plan: [solo, everyone]\\n"
            + "workload: {type: write, size: 1MiB}' | plan: unknown step 'everyone'",
        "bad boolean        | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, fdatasync: yes please}' | workload.fdatasync:"
            + " 'yes please' must be true or false",
        "bad telemetry      | 'name: x\\n"
            + "telemetry: sometimes\\n"
            + "workload: {type: write, size: 1MiB}'     | telemetry: 'sometimes' must be true or"
            + " false",
        "direct misaligned  | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, block-size: 1000, o-direct: true}' |"
            + " workload.o-direct: needs block-size",
        "bad timeout        | 'name: x\\n"
            + "timeout: soon\\n"
            + "workload: {type: write, size: 1MiB}'      | timeout: 'soon' is not a duration",
        "no workload        | 'name: x'                                                           |"
            + " workload: is required",
        "path leaves root   | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, file: \"a/../../x\"}'     | workload.file:"
            + " 'a/../../x' must stay under the agent's --root",
        "absolute dir       | 'name: x\\n"
            + "workload: {type: lock-files, dir: /etc}'                 | workload.dir: '/etc' must"
            + " stay under the agent's --root",
        "timeout overflows  | 'name: x\\n"
            + "timeout: 99999999999999999999h\\n"
            + "workload: {type: write, size: 1MiB}' | timeout: '99999999999999999999h' is outside"
            + " the allowed range",
        "minutes overflow   | 'name: x\\n"
            + "timeout: 9223372036854775807m\\n"
            + "workload: {type: write, size: 1MiB}' | timeout: '9223372036854775807m' is outside"
            + " the allowed range",
        "hold would wrap    | 'name: x\\n"
            + "workload: {type: hot-lock, hold: 18446744073709552us}'  | workload.hold:"
            + " '18446744073709552us' is outside the allowed range",
        "integer overflows  | 'name: x\\n"
            + "workload: {type: lock-files, processes: 99999999999999999999}' | workload.processes:"
            + " 99999999999999999999 is outside the allowed range",
        "duplicate key      | 'name: x\\n"
            + "name: y\\n"
            + "workload: {type: write, size: 1MiB}'        | invalid YAML at line 2, column 5:"
            + " Duplicate field 'name'",
        "duplicate nested   | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, size: 2GiB}'       | invalid YAML at line 2,"
            + " column 41: Duplicate field 'size'",
        "uninstrumented io  | 'name: x\\n"
            + "workload: {type: write, size: 1MiB, instrumentation: false}' |"
            + " workload.instrumentation: can be turned off for the lock workloads (lock-files,"
            + " ping-pong, hot-lock) only, not for write",
      })
  void refusesBadInputNamingFileAndField(String what, String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml.replace("\\n", "\n")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("scenario t.yaml: ")
        .hasMessageContaining(message);
  }

  @Test
  void overlongPathsAreRefusedBeforeAnyAgentIsAsked() {
    String longName = "x".repeat(300);
    assertThatThrownBy(
            () ->
                parse("name: x\nworkload: {type: write, size: 1MiB, file: \"a/" + longName + "\"}"))
        .hasMessageStartingWith("scenario t.yaml: workload.file: 'a/xxx")
        .hasMessageContaining("(302 characters)")
        .hasMessageContaining(
            "has a name of 300 bytes; a file name may have at most 255 (NAME_MAX)");
    String deep = "d/".repeat(2750) + "f";
    assertThatThrownBy(
            () -> parse("name: x\nworkload: {type: write, size: 1MiB, file: \"" + deep + "\"}"))
        .hasMessageContaining("is 5501 bytes long; a path under the root may have at most 3072")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(400));
  }

  @Test
  void controlCharactersFromTheScenarioAreShownEscapedNeverRaw() {
    // an ANSI escape that would clear the terminal, and a newline that would forge a line
    assertThatThrownBy(
            () ->
                parse(
                    "name: x\n"
                        + "workload: {type: write, size: 1MiB, pattern: \"\\e[2Jrandom\\n"
                        + "lockstep: ok\"}"))
        .hasMessage(
            "scenario t.yaml: workload.pattern: unknown pattern '\\x1b[2Jrandom\\n"
                + "lockstep: ok' (known: sequential, random)")
        .satisfies(
            e -> assertThat(e.getMessage().chars().noneMatch(Character::isISOControl)).isTrue());
  }

  @Test
  void telemetryIsOnUnlessTurnedOff() {
    assertThat(parse("name: x\nworkload: {type: write, size: 1MiB}\n").telemetry()).isTrue();
    assertThat(
            parse("name: x\ntelemetry: false\nworkload: {type: write, size: 1MiB}\n").telemetry())
        .isFalse();
  }

  @Test
  void aMissingFileIsNamed() {
    assertThatThrownBy(() -> parser.parse(Path.of("does-not-exist.yaml")))
        .hasMessage("scenario does-not-exist.yaml: file not found");
  }

  @Test
  void readsExpectationsAgainstThePlanAndTheWorkload() {
    Scenario s =
        parse(
            """
            name: ci
            plan: [solo, all]
            expect: {efficiency: ">= 0.8", skew: "<= 5ms", throughput: ">= 150 MB/s"}
            workload: {type: write, size: 1MiB}
            """);
    assertThat(s.expectations())
        .extracting(Expectation::name)
        .containsExactly("efficiency >= 0.80", "skew <= 5 ms", "throughput >= 150 MB/s");
    assertThat(parse("name: x\nworkload: {type: write, size: 1MiB}").expectations()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not producible | 'plan: [all]\\nexpect: {efficiency: \">= 0.8\"}' | scenario t.yaml:"
            + " expect.efficiency: needs each node alone and the nodes together, and plan [all]"
            + " runs no node alone (no solo step); use plan: [solo, all]",
        "unknown figure | 'expect: {skw: \"<= 5ms\"}' | scenario t.yaml: expect.skw: unknown"
            + " figure (known: efficiency,",
        "unit           | 'expect: {skew: \"<= 5\"}' | scenario t.yaml: expect.skew: '<= 5': a"
            + " duration needs its unit, us, ms or s (e.g. '<= 5ms')",
        "throughput unit | 'expect: {throughput: \">= 100 locks/s\"}' | scenario t.yaml:"
            + " expect.throughput: '>= 100 locks/s': this run's throughput is in MB/s (workload"
            + " write), not locks/s",
        "a number       | 'expect: {coherence-errors: 0}' | scenario t.yaml:"
            + " expect.coherence-errors: '0' must be a comparison in quotes, such as \">= 0.8\""
            + " or \"== 0\"",
        "a list         | 'expect: [efficiency]' | scenario t.yaml: expect: must be a mapping of"
            + " figure: \"comparison\", such as {efficiency: \">= 0.8\"}",
      })
  void refusesABadExpectationInOneLineNamingFileAndField(String what, String yaml, String line) {
    assertThatThrownBy(
            () ->
                parse(
                    "name: x\n"
                        + yaml.replace("\\n", "\n")
                        + "\nworkload: {type: write, size: 1MiB}\n"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(line)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void anUnquotedComparisonThatYamlReadsAsABlockIsOneLineSayingQuoteIt() {
    assertThatThrownBy(
            () -> parse("name: x\nexpect:\n  efficiency: >= 0.8\nworkload: {type: write}\n"))
        .hasMessageStartingWith("scenario t.yaml: invalid YAML at line 3")
        .hasMessageEndingWith(
            ": a value that begins with '>' or '|' must be quoted, as in efficiency: \">= 0.8\"");
  }

  @Test
  void anExpectationsControlCharactersAreShownEscaped() {
    assertThatThrownBy(
            () ->
                parse(
                    "name: x\nexpect: {\"sk\\e[2Jew\": \">= 1\\n\"}\n"
                        + "workload: {type: write, size: 1MiB}\n"))
        .hasMessageStartingWith("scenario t.yaml: expect.sk\\x1b[2Jew: unknown figure")
        .satisfies(
            e -> assertThat(e.getMessage().chars().noneMatch(Character::isISOControl)).isTrue());
    assertThatThrownBy(
            () ->
                parse(
                    "name: x\nexpect: {skew: \"<= 1\\e[2J\"}\n"
                        + "workload: {type: write, size: 1MiB}\n"))
        .hasMessage(
            "scenario t.yaml: expect.skew: '<= 1\\x1b[2J': a duration takes us, ms or s, not"
                + " '\\x1b[2J'");
  }
}

package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Malformed scenarios thrown at the parser: each either parses or ends in one {@link
 * ScenarioException} naming the file, within a second, with no control character in the message and
 * nothing longer than a line. Never another exception (that would be an "internal error" with a
 * stack trace in the log and exit 1 instead of 2).
 */
class ScenarioFuzzTest {
  private static final String VALID =
      """
      name: fuzz
      plan: [solo, all]
      repeat: 2
      timeout: 30s
      start-lead: 500ms
      expect:
        efficiency: ">= 0.8"
        skew: "<= 5ms"
      workload:
        type: write
        file: "f.{node}"
        size: 1MiB
        block-size: 4KiB
        fdatasync: true
      """;

  private static final List<String> FIELDS =
      List.of(
          "name",
          "plan",
          "repeat",
          "timeout",
          "start-lead",
          "ramp",
          "skew-warn-percent",
          "agents",
          "workload",
          "type",
          "file",
          "size",
          "block-size",
          "fdatasync",
          "o-direct",
          "processes",
          "files",
          "lock",
          "lock-mode",
          "lock-wait",
          "hold",
          "duration",
          "warmup",
          "slots",
          "threads",
          "dir",
          "ops",
          "depth",
          "pattern",
          "io",
          "release",
          "close",
          "expect",
          "efficiency",
          "skew");

  @Provide
  Arbitrary<String> hostileValues() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        Arbitraries.strings().withCharRange('\u0000', '\u001f').ofMinLength(1).ofMaxLength(8),
        Arbitraries.of(
            "99999999999999999999",
            "-1",
            "9223372036854775807",
            "18446744073709552us",
            "9223372036854775807m",
            "1e400",
            ".",
            "..",
            "../../etc",
            "/etc/passwd",
            "{node}",
            "\"\\e[2J\"",
            "[]",
            "{}",
            "[[[[[[",
            "~",
            "null",
            "0",
            "0us",
            "1TiB",
            "4.5KiB",
            "NaN",
            "true",
            "a/".repeat(3000),
            "x".repeat(600),
            "&anchor x",
            "*alias",
            "!!binary AAAA",
            "? complex",
            "\">= 1e400\"",
            "\"<= 99999999999999999999ms\"",
            "\"== 0\"",
            "\">=\"",
            "\"> 5 MB/s\"",
            "\"<= 5\\e[2Jms\"",
            ">= 0.8"),
        Arbitraries.integers().map(String::valueOf),
        // numbers at the edges of every integer type, with every unit a field takes
        Combinators.combine(
                Arbitraries.oneOf(
                        Arbitraries.longs(),
                        Arbitraries.of(
                            Long.MAX_VALUE,
                            Long.MIN_VALUE,
                            (long) Integer.MAX_VALUE,
                            4294967296L,
                            18446744073709552L,
                            0L,
                            1L,
                            -1L))
                    .map(String::valueOf),
                Arbitraries.of("", "us", "ms", "s", "m", "h", "K", "KiB", "MB", "TiB"))
            .as((n, unit) -> n + unit),
        Arbitraries.strings().numeric().ofMinLength(19).ofMaxLength(40).map(n -> n + "s"));
  }

  @Provide
  Arbitrary<String> scenarios() {
    Arbitrary<String> replaceValue =
        Combinators.combine(Arbitraries.of(FIELDS), hostileValues())
            .as(
                (f, v) ->
                    VALID.contains(f + ":")
                        ? VALID.replaceFirst(
                            f + ": [^\\n]*", f + ": " + v.replace("\\", "\\\\").replace("$", "\\$"))
                        : VALID.replace("  type: write", "  type: write\n  " + f + ": " + v));
    Arbitrary<String> insertText =
        Combinators.combine(Arbitraries.integers().between(0, VALID.length()), hostileValues())
            .as((at, v) -> VALID.substring(0, at) + v + VALID.substring(at));
    Arbitrary<String> cut =
        Arbitraries.integers().between(0, VALID.length()).map(n -> VALID.substring(0, n));
    return Arbitraries.frequencyOf(
        Tuple.of(6, replaceValue),
        Tuple.of(2, insertText),
        Tuple.of(1, cut),
        Tuple.of(1, hostileValues()));
  }

  @Property(tries = 1000)
  void everyInputParsesOrFailsWithOneCleanScenarioError(@ForAll("scenarios") String yaml)
      throws Exception {
    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                new ScenarioParser().parse(yaml, "fuzz.yaml");
                return null;
              } catch (Throwable e) {
                return e;
              }
            });
    Throwable e = outcome.get(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
    if (e == null) {
      return;
    }
    assertThat(e).as("input:%n%s", yaml).isInstanceOf(ScenarioException.class);
    assertThat(e.getMessage()).startsWith("scenario fuzz.yaml: ");
    assertThat(e.getMessage().chars().noneMatch(Character::isISOControl))
        .as(e.getMessage())
        .isTrue();
    assertThat(e.getMessage().length()).as(e.getMessage()).isLessThan(1000);
  }
}

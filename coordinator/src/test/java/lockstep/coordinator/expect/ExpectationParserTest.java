package lockstep.coordinator.expect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WorkloadKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The expression language: what reads, into which bound, and every refusal as one line. */
class ExpectationParserTest {
  static final PlanFigures WRITE_SOLO_ALL =
      PlanFigures.of(
          List.of("solo", "all"),
          List.of(),
          WorkloadKind.WRITE,
          WorkloadKind.WRITE.spec(WriteWorkload.getDefaultInstance()));
  static final PlanFigures LOCKS_SOLO_ALL =
      PlanFigures.of(
          List.of("solo", "all"),
          List.of(),
          WorkloadKind.PING_PONG,
          WorkloadKind.PING_PONG.spec(
              PingPongWorkload.newBuilder().setIo(PingPongIo.PING_PONG_IO_READ_WRITE).build()));

  private static Expectation write(String figure, String expression) {
    return ExpectationParser.parse(figure, expression, WRITE_SOLO_ALL);
  }

  private static PlanFigures plan(String kind, List<String> plan, List<Integer> ramp) {
    WorkloadKind<?> k = WorkloadKind.named(kind);
    return PlanFigures.of(plan, ramp, k, k.spec(k.newMessageBuilder().getDefaultInstanceForType()));
  }

  @Test
  void ratiosArePlainOrPercent() {
    Expectation plain = write("efficiency", ">= 0.8");
    assertThat(plain.figure()).isEqualTo(Figure.EFFICIENCY);
    assertThat(plain.comparison()).isEqualTo(Comparison.AT_LEAST);
    assertThat(plain.bound()).isEqualTo(0.8);
    assertThat(plain.name()).isEqualTo("efficiency >= 0.80");
    assertThat(plain.show(0.6123)).isEqualTo("0.61");
    Expectation percent = write("node-efficiency", ">80%");
    assertThat(percent.bound()).isEqualTo(0.8);
    assertThat(percent.comparison()).isEqualTo(Comparison.ABOVE);
    assertThat(percent.name()).isEqualTo("node-efficiency > 80%");
    assertThat(percent.show(0.6123)).isEqualTo("61.2%");
    assertThat(write("min-node-efficiency", "  >=   0.805  ").name())
        .isEqualTo("min-node-efficiency >= 0.805");
  }

  @Test
  void durationsTakeTheirUnitAndAreKeptInMilliseconds() {
    assertThat(write("skew", "<= 5ms").bound()).isEqualTo(5.0);
    assertThat(write("skew", "<= 5ms").name()).isEqualTo("skew <= 5 ms");
    assertThat(write("skew", "<=500us").bound()).isEqualTo(0.5);
    assertThat(write("p99", "< 2 s").bound()).isEqualTo(2000.0);
    assertThat(write("p99", "< 0.3s").bound()).isEqualTo(300.0);
    assertThat(write("skew", "<= 1.1us").bound()).isEqualTo(0.0011);
    assertThat(write("efficiency", ">= 57%").bound()).isEqualTo(0.57);
    Expectation p99 = write("node-p99", "<= 20ms");
    assertThat(p99.show(28.91734)).isEqualTo("28.917 ms");
    assertThat(write("skew", "<= 250us").show(0.1234)).isEqualTo("123.4 us");
    // a small figure keeps three significant digits, whatever the bound's unit
    assertThat(write("skew", "<= 1s").show(4.354)).isEqualTo("0.00435 s");
    assertThat(write("skew", "<= 1s").show(0.0212)).isEqualTo("0.000021 s");
    assertThat(write("skew", "<= 1s").show(354)).isEqualTo("0.354 s");
    assertThat(write("efficiency", ">= 0.8").show(0.04321)).isEqualTo("0.0432");
  }

  @Test
  void throughputIsInTheRunsOwnUnitWrittenOrNot() {
    Expectation mb = write("throughput", ">= 150 MB/s");
    assertThat(mb.bound()).isEqualTo(150.0);
    assertThat(mb.name()).isEqualTo("throughput >= 150 MB/s");
    assertThat(write("solo-throughput", ">=150").name()).isEqualTo("solo-throughput >= 150 MB/s");
    Expectation locks = ExpectationParser.parse("node-throughput", ">= 2000", LOCKS_SOLO_ALL);
    assertThat(locks.name()).isEqualTo("node-throughput >= 2000 locks/s");
    assertThat(locks.show(19391.4)).isEqualTo("19,391 locks/s");
    assertThat(locks.unit()).isEqualTo("locks/s");
  }

  @Test
  void countsAreWholeNumbersAndTheOnlyFigureEqualityFits() {
    Expectation e = ExpectationParser.parse("coherence-errors", "== 0", LOCKS_SOLO_ALL);
    assertThat(e.comparison()).isEqualTo(Comparison.EQUAL);
    assertThat(e.name()).isEqualTo("coherence-errors == 0");
    assertThat(e.holds(0)).isTrue();
    assertThat(e.holds(1)).isFalse();
    assertThat(ExpectationParser.parse("coherence-errors", "<= 3", LOCKS_SOLO_ALL).holds(3))
        .isTrue();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "eficiency        | >= 0.8       | eficiency: unknown figure (known: efficiency,"
            + " node-efficiency, min-node-efficiency, throughput, node-throughput,"
            + " solo-throughput, skew, p99, node-p99, coherence-errors)",
        "efficiency       | \"\"           | efficiency: is empty; write a comparison such as '>="
            + " 0.8'",
        "efficiency       | => 0.8       | efficiency: '=> 0.8' must start with a comparator: >=,"
            + " <=, >, < or ==",
        "efficiency       | 0.8          | efficiency: '0.8' must start with a comparator: >=, <=,"
            + " >, < or ==",
        "efficiency       | != 1         | efficiency: '!= 1' must start with a comparator: >=,"
            + " <=, >, < or ==",
        "efficiency       | >= -1        | efficiency: '>= -1': >= must be followed by a number"
            + " (digits, with a decimal point if need be: 0.8, 150, 2.5)",
        "efficiency       | >= .8        | efficiency: '>= .8': >= must be followed by a number"
            + " (digits, with a decimal point if need be: 0.8, 150, 2.5)",
        "efficiency       | >= 1e3       | efficiency: '>= 1e3': a ratio takes no unit or %, not"
            + " 'e3'",
        "efficiency       | >= 0.8.1     | efficiency: '>= 0.8.1': a ratio takes no unit or %, not"
            + " '.1'",
        "throughput       | >= 9999999999999 | throughput: '>= 9999999999999': 9999999999999 has"
            + " more than 12 digits",
        "efficiency       | >= 5ms       | efficiency: '>= 5ms': a ratio takes no unit or %, not"
            + " 'ms'",
        "efficiency       | == 1         | efficiency: '== 1': == suits counts (coherence-errors)"
            + " only; efficiency is a ratio, compare it with >= or <=",
        "skew             | <= 5         | skew: '<= 5': a duration needs its unit, us, ms or s"
            + " (e.g. '<= 5ms')",
        "skew             | <= 5 min     | skew: '<= 5 min': a duration takes us, ms or s, not"
            + " 'min'",
        "p99              | <= 5%        | p99: '<= 5%': a duration takes us, ms or s, not '%'",
        "throughput       | >= 150 locks/s | throughput: '>= 150 locks/s': this run's throughput"
            + " is in MB/s (workload write), not locks/s",
        "throughput       | >= 150 mb/s  | throughput: '>= 150 mb/s': a throughput takes MB/s"
            + " (this workload's unit) or none, not 'mb/s'",
        "skew             | <= 1234567890123456789012345678901234567890ms | skew: is 45 characters"
            + " long; a comparison is short, such as '<= 5ms'",
      })
  void refusesEachBadExpressionInOneLine(String figure, String expression, String message) {
    assertThatThrownBy(() -> write(figure, expression))
        .isInstanceOf(ExpectationException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "coherence-errors | == 0.5 | coherence-errors: '== 0.5': a count is a whole number",
        "coherence-errors | == 0 errors | coherence-errors: '== 0 errors': a count takes no unit,"
            + " not 'errors'",
      })
  void refusesCountsWithAFractionOrAUnit(String figure, String expression, String message) {
    assertThatThrownBy(() -> ExpectationParser.parse(figure, expression, LOCKS_SOLO_ALL))
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{0} with plan {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "efficiency | all | efficiency: needs each node alone and the nodes together, and plan"
            + " [all] runs no node alone (no solo step); use plan: [solo, all]",
        "min-node-efficiency | solo | min-node-efficiency: needs each node alone and the nodes"
            + " together, and plan [solo] runs no step with the nodes together (no all or ramp"
            + " step); use plan: [solo, all]",
        "solo-throughput | all | solo-throughput: needs each node alone, and plan [all] runs no"
            + " node alone (no solo step); use plan: [solo, all]",
        "throughput | solo | throughput: needs the nodes together, and plan [solo] runs no step"
            + " with the nodes together (no all or ramp step); use plan: [solo, all]",
        "node-p99 | solo | node-p99: needs the nodes together, and plan [solo] runs no step with"
            + " the nodes together (no all or ramp step); use plan: [solo, all]",
      })
  void refusesAFigureThePlanCannotProduce(String figure, String plan, String message) {
    PlanFigures p = plan("write", List.of(plan), List.of());
    String expression = figure.contains("throughput") ? ">= 1" : "<= 5ms";
    if (figure.contains("efficiency")) {
      expression = ">= 0.8";
    }
    String e = expression;
    assertThatThrownBy(() -> ExpectationParser.parse(figure, e, p)).hasMessage(message);
  }

  @Test
  void aRampGivesSoloAndTogetherFiguresWhenItsCountsDo() {
    assertThat(plan("write", List.of("ramp"), List.of()))
        .satisfies(
            p -> {
              assertThat(p.solo()).isTrue();
              assertThat(p.together()).isTrue();
            });
    assertThat(plan("write", List.of("ramp"), List.of(2, 3)).solo()).isFalse();
    assertThat(plan("write", List.of("ramp"), List.of(1)).together()).isFalse();
    assertThat(plan("write", List.of("solo", "ramp"), List.of(2, 3)))
        .satisfies(p -> assertThat(p.solo() && p.together()).isTrue());
    assertThat(ExpectationParser.parse("skew", "<= 1s", plan("write", List.of("ramp"), List.of(1))))
        .isNotNull();
  }

  @Test
  void coherenceErrorsOnlyForAWorkloadThatChecksCoherence() {
    assertThatThrownBy(() -> write("coherence-errors", "== 0"))
        .hasMessage(
            "coherence-errors: workload write does not check coherence (only ping-pong with io:"
                + " read-write does)");
    assertThatThrownBy(
            () ->
                ExpectationParser.parse(
                    "coherence-errors", "== 0", plan("ping-pong", List.of("all"), List.of())))
        .hasMessage(
            "coherence-errors: workload ping-pong counts coherence errors only with io:"
                + " read-write");
  }

  @Test
  void theCommandLineTakesFigureEqualsComparisonOrFigureComparison() {
    List<Expectation> cli =
        ExpectationParser.commandLine(
            List.of("efficiency=>= 0.8", "skew<=5ms", "throughput = >= 100", " p99 =<= 20ms "),
            WRITE_SOLO_ALL);
    assertThat(cli)
        .extracting(Expectation::name)
        .containsExactly(
            "efficiency >= 0.80", "skew <= 5 ms", "throughput >= 100 MB/s", "p99 <= 20 ms");
    assertThat(ExpectationParser.commandLine(List.of("coherence-errors==0"), LOCKS_SOLO_ALL))
        .singleElement()
        .satisfies(e -> assertThat(e.comparison()).isEqualTo(Comparison.EQUAL));
    assertThat(ExpectationParser.commandLine(null, WRITE_SOLO_ALL)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'=>= 0.8'        | --expect: '=>= 0.8' must be FIGURE=COMPARISON, such as"
            + " efficiency='>= 0.8'",
        "efficiency       | --expect efficiency: is empty; write a comparison such as '>= 0.8'",
        "efficiency=      | --expect efficiency: is empty; write a comparison such as '>= 0.8'",
        "Efficiency>=0.8  | --expect: 'Efficiency>=0.8' must be FIGURE=COMPARISON, such as"
            + " efficiency='>= 0.8'",
        "efficiency=0.8   | --expect efficiency: '0.8' must start with a comparator: >=, <=, >, <"
            + " or ==",
        "effic=>= 0.8     | --expect effic: unknown figure (known: efficiency, node-efficiency,"
            + " min-node-efficiency, throughput, node-throughput, solo-throughput, skew, p99,"
            + " node-p99, coherence-errors)",
      })
  void refusesABadCommandLineExpectationNamingTheFlag(String arg, String message) {
    assertThatThrownBy(() -> ExpectationParser.commandLine(List.of(arg), WRITE_SOLO_ALL))
        .isInstanceOf(ExpectationException.class)
        .hasMessage(message);
  }

  @Test
  void aFigureGivenTwiceOnTheCommandLineIsRefused() {
    assertThatThrownBy(
            () -> ExpectationParser.commandLine(List.of("skew<=5ms", "skew<=6ms"), WRITE_SOLO_ALL))
        .hasMessage("--expect skew: is given twice");
  }

  @Test
  void theCommandLineReplacesTheScenariosBoundInItsPlaceAndAddsTheRest() {
    List<Expectation> scenario = List.of(write("efficiency", ">= 0.8"), write("skew", "<= 5ms"));
    List<Expectation> cli = List.of(write("p99", "<= 9ms"), write("efficiency", ">= 0.5"));
    assertThat(ExpectationParser.merge(scenario, cli))
        .extracting(Expectation::name)
        .containsExactly("efficiency >= 0.50", "skew <= 5 ms", "p99 <= 9 ms");
  }
}

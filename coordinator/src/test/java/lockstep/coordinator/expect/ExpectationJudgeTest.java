package lockstep.coordinator.expect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import lockstep.common.LatencyHistograms;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.ExpectationStatus;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Every figure judged both ways on hand-built run records with known figures (analysis/TestRuns):
 * the outcome, the measured figure and the printed line.
 */
class ExpectationJudgeTest {
  /** Lock-files, 2 nodes: alone 1000 locks/s each, together node1 600 and node2 400. */
  private static final RunRecord RUN =
      TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {600, 400});

  private static ExpectationOutcome judge(RunRecord run, String figure, String expression) {
    Expectation e = ExpectationParser.parse(figure, expression, PlanFigures.of(run));
    return ExpectationJudge.judge(List.of(e), run).get(0);
  }

  private static ExpectationOutcome judge(String figure, String expression) {
    return judge(RUN, figure, expression);
  }

  private static void assertOutcome(
      ExpectationOutcome outcome, ExpectationStatus status, String message) {
    assertThat(outcome.status()).isEqualTo(status);
    assertThat(outcome.message()).isEqualTo(message);
  }

  @Test
  void aggregateEfficiencyBothWays() {
    ExpectationOutcome broken = judge("efficiency", ">= 0.8");
    assertThat(broken.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(broken.measured()).isCloseTo(0.5, within(1e-12));
    assertThat(broken.message())
        .isEqualTo("expect efficiency >= 0.80: measured 0.50 (lowest node2 0.40)");
    assertThat(broken.unit()).isEqualTo("ratio");
    assertThat(broken.bound()).isEqualTo(0.8);
    assertThat(broken.name()).isEqualTo("efficiency >= 0.80");
    assertThat(broken.expression()).isEqualTo(">= 0.8");
    assertOutcome(
        judge("efficiency", ">= 50%"),
        ExpectationStatus.HELD,
        "expect efficiency >= 50%: measured 50.0% (lowest node2 40.0%)");
    assertThat(judge("efficiency", "> 0.5").status()).isEqualTo(ExpectationStatus.BROKEN);
  }

  @Test
  void perNodeEfficiencyHoldsOnlyWhenEveryNodeHoldsIt() {
    ExpectationOutcome broken = judge("node-efficiency", ">= 0.5");
    assertThat(broken.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(broken.node()).isEqualTo("node2");
    assertThat(broken.measured()).isCloseTo(0.4, within(1e-12));
    assertThat(broken.message())
        .isEqualTo(
            "expect node-efficiency >= 0.50: measured 0.40 on node2 (1 of 2 nodes break it: node2"
                + " 0.40)");
    assertOutcome(
        judge("node-efficiency", ">= 0.4"),
        ExpectationStatus.HELD,
        "expect node-efficiency >= 0.40: measured 0.40 on node2 (the lowest of 2 nodes)");
    ExpectationOutcome upper = judge("node-efficiency", "<= 0.5");
    assertThat(upper.node()).isEqualTo("node1");
    assertThat(upper.message())
        .isEqualTo(
            "expect node-efficiency <= 0.50: measured 0.60 on node1 (1 of 2 nodes break it: node1"
                + " 0.60)");
    assertThat(judge("node-efficiency", "<= 0.6").message())
        .isEqualTo(
            "expect node-efficiency <= 0.60: measured 0.60 on node1 (the highest of 2 nodes)");
    assertThat(judge("node-efficiency", "< 0.3").message())
        .endsWith("(2 of 2 nodes break it: node1 0.60, node2 0.40)");
  }

  @Test
  void aNodeWithoutTheFigureIsTheOneNamedEvenWhenTheOthersHoldIt() {
    // node2 is not in the together step: it has no together figure, node1 holds the bound
    RunRecord run = TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {600});
    ExpectationOutcome o = judge(run, "node-throughput", ">= 500");
    assertThat(o.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(o.node()).isEqualTo("node2");
    assertThat(o.measured()).isNull();
    assertThat(o.message())
        .isEqualTo(
            "expect node-throughput >= 500 locks/s: not measured on node2 (1 of 2 nodes break it:"
                + " node2 not measured)");
  }

  @Test
  void theLowestNodesEfficiency() {
    assertThat(judge("min-node-efficiency", ">= 0.45").message())
        .isEqualTo(
            "expect min-node-efficiency >= 0.45: measured 0.40 (node2, the lowest of 2 nodes)");
    assertThat(judge("min-node-efficiency", "<= 0.45").status()).isEqualTo(ExpectationStatus.HELD);
    assertThat(judge("min-node-efficiency", "<= 0.45").node()).isEqualTo("node2");
  }

  @Test
  void throughputTogetherAloneAndPerNode() {
    ExpectationOutcome agg = judge("throughput", ">= 1500 locks/s");
    assertThat(agg.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(agg.measured()).isCloseTo(1000, within(1e-9));
    assertThat(agg.unit()).isEqualTo("locks/s");
    assertThat(agg.message())
        .isEqualTo(
            "expect throughput >= 1500 locks/s: measured 1000 locks/s (step all, 2 nodes, sum of"
                + " nodes)");
    assertThat(judge("throughput", ">= 1000").status()).isEqualTo(ExpectationStatus.HELD);
    assertOutcome(
        judge("node-throughput", ">= 500"),
        ExpectationStatus.BROKEN,
        "expect node-throughput >= 500 locks/s: measured 400 locks/s on node2 (1 of 2 nodes"
            + " break it: node2 400 locks/s)");
    assertThat(judge("node-throughput", "<= 600").status()).isEqualTo(ExpectationStatus.HELD);
    assertOutcome(
        judge("solo-throughput", ">= 900"),
        ExpectationStatus.HELD,
        "expect solo-throughput >= 900 locks/s: measured 1000 locks/s on node1 (the lowest of"
            + " 2 nodes)");
    assertThat(judge("solo-throughput", ">= 1001").status()).isEqualTo(ExpectationStatus.BROKEN);
  }

  @Test
  void theLargestStartSkewOfAnyStepNamesItsNodeAndStep() {
    List<StepRecord> steps = new ArrayList<>(RUN.steps());
    steps.add(
        TestRuns.step(
            "all-late",
            "all",
            "all",
            2,
            TestRuns.node("node1", 500, 0.001, 1.001, -7.25, 0),
            TestRuns.node("node2", 500, 0.001, 1.001, 2, 0)));
    RunRecord run = TestRuns.analysed(TestRuns.run(RUN.agents(), steps, 2, 0.05));
    ExpectationOutcome broken = judge(run, "skew", "<= 5ms");
    assertThat(broken.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(broken.measured()).isEqualTo(7.25);
    assertThat(broken.node()).isEqualTo("node1");
    assertThat(broken.unit()).isEqualTo("ms");
    assertThat(broken.message())
        .isEqualTo(
            "expect skew <= 5 ms: measured 7.250 ms (node1 in step all-late, ± 0.100 ms clock"
                + " uncertainty)");
    ExpectationOutcome held = judge(run, "skew", "<= 8000us");
    assertThat(held.status()).isEqualTo(ExpectationStatus.HELD);
    assertThat(held.message()).startsWith("expect skew <= 8000 us: measured 7250.0 us (node1");
  }

  private static String histogram(long... micros) {
    Histogram h = LatencyHistograms.create();
    for (long us : micros) {
      h.recordValue(us * 1000);
    }
    return Base64.getEncoder().encodeToString(LatencyHistograms.encode(h).toByteArray());
  }

  private static NodeResult withHistogram(NodeResult n, String histogram) {
    return new NodeResult(
        n.node(),
        n.status(),
        n.ops(),
        n.bytes(),
        n.seconds(),
        n.throughput(),
        n.startSkewMillis(),
        n.clockOffsetMillis(),
        n.clockUncertaintyMillis(),
        n.firstOpUnixNanos(),
        n.endUnixNanos(),
        n.latency(),
        histogram,
        n.series(),
        n.error(),
        n.filesRemoved(),
        n.coherenceErrors(),
        n.coherenceChecks(),
        n.lockRetries(),
        n.opsShare(),
        n.operations(),
        n.resources());
  }

  /** The step with this status, these results, aggregate and errors, and no faults. */
  private static StepRecord changed(
      StepRecord s,
      RunStatus status,
      List<NodeResult> results,
      Aggregate aggregate,
      List<String> errors) {
    return new StepRecord(
        s.id(),
        s.kind(),
        s.nodes(),
        s.intendedStartUnixNanos(),
        status,
        results,
        aggregate,
        errors,
        s.group(),
        s.repeat(),
        List.of(),
        List.of());
  }

  /** The aggregate with these percentiles and this merged histogram. */
  private static Aggregate aggregateWith(Aggregate a, Latency latency, String histogram) {
    return new Aggregate(
        a.seconds(),
        a.ops(),
        a.bytes(),
        a.throughput(),
        a.sumOfNodes(),
        a.maxAbsSkewMillis(),
        latency,
        histogram);
  }

  /** RUN with latencies: node1 100 ops at 1 ms, node2 98 at 1 ms and 2 at 30 ms, together. */
  private static RunRecord withLatency() {
    long[] fast = new long[100];
    Arrays.fill(fast, 1000);
    long[] node2 = fast.clone();
    node2[98] = 30_000;
    node2[99] = 30_000;
    long[] all = new long[200];
    System.arraycopy(fast, 0, all, 0, 100);
    System.arraycopy(node2, 0, all, 100, 100);
    List<StepRecord> steps = new ArrayList<>();
    for (StepRecord s : RUN.steps()) {
      if (!s.group().equals("all")) {
        steps.add(s);
        continue;
      }
      List<NodeResult> nodes =
          List.of(
              withHistogram(s.results().get(0), histogram(fast)),
              withHistogram(s.results().get(1), histogram(node2)));
      Aggregate a = s.aggregate();
      steps.add(
          changed(s, s.status(), nodes, aggregateWith(a, a.latency(), histogram(all)), s.errors()));
    }
    return TestRuns.analysed(TestRuns.run(RUN.agents(), steps, 1, 0.05));
  }

  @Test
  void p99TogetherFromTheMergedHistogramsAndPerNode() {
    RunRecord run = withLatency();
    // 200 operations, 2 of them at 30 ms: the 99th percentile is 1 ms; node2's own is 30 ms
    ExpectationOutcome agg = judge(run, "p99", "<= 2ms");
    assertThat(agg.status()).isEqualTo(ExpectationStatus.HELD);
    assertThat(agg.measured()).isCloseTo(1.0, within(0.01));
    assertThat(agg.message())
        .startsWith("expect p99 <= 2 ms: measured 1.000 ms (step all, 200 operations of 2 nodes)");
    assertThat(judge(run, "p99", "< 900us").status()).isEqualTo(ExpectationStatus.BROKEN);
    ExpectationOutcome node = judge(run, "node-p99", "<= 20ms");
    assertThat(node.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(node.node()).isEqualTo("node2");
    assertThat(node.message())
        .startsWith("expect node-p99 <= 20 ms: measured 30.")
        .contains(" ms on node2 (1 of 2 nodes break it: node2 30.");
    assertThat(judge(run, "node-p99", "<= 31ms").status()).isEqualTo(ExpectationStatus.HELD);
  }

  @Test
  void aFigureTheRunDidNotMeasureBreaksItsExpectation() {
    // TestRuns carries no histograms, only each step's percentiles: one repeat's are the figure
    assertThat(judge("p99", "<= 1ms").message())
        .isEqualTo(
            "expect p99 <= 1 ms: measured 0.0200 ms (step all, 1,000 operations of 2 nodes)");
    // with instrumentation off nothing was recorded
    List<StepRecord> unrecorded =
        RUN.steps().stream()
            .map(
                s ->
                    changed(
                        s,
                        s.status(),
                        s.results(),
                        aggregateWith(s.aggregate(), new Latency(0, 0, 0, 0, 0, 0, 0), ""),
                        s.errors()))
            .toList();
    ExpectationOutcome p99 =
        judge(TestRuns.analysed(TestRuns.run(RUN.agents(), unrecorded, 1, 0.05)), "p99", "<= 1s");
    assertThat(p99.measured()).isNull();
    assertOutcome(
        p99,
        ExpectationStatus.BROKEN,
        "expect p99 <= 1 s: not measured: no latency was recorded in step all"
            + " (instrumentation: false?)");
    // the together step failed: no together figure at all
    List<StepRecord> steps =
        RUN.steps().stream()
            .map(
                s ->
                    s.group().equals("all")
                        ? changed(
                            s,
                            RunStatus.FAILED,
                            s.results(),
                            s.aggregate(),
                            List.of("node2: failed"))
                        : s)
            .toList();
    RunRecord noTogether = TestRuns.analysed(TestRuns.run(RUN.agents(), steps, 1, 0.05));
    assertThat(judge(noTogether, "efficiency", ">= 0.1").message())
        .isEqualTo(
            "expect efficiency >= 0.10: not measured: no step with the nodes together finished");
    assertThat(judge(noTogether, "node-throughput", ">= 1").message())
        .isEqualTo(
            "expect node-throughput >= 1 locks/s: not measured on node1 (2 of 2 nodes break it:"
                + " node1 not measured, node2 not measured)");
    assertThat(judge(noTogether, "min-node-efficiency", ">= 0.1"))
        .as("x")
        .extracting(ExpectationOutcome::status)
        .isEqualTo(ExpectationStatus.BROKEN);
  }

  private static RunRecord pingPong(long errors, long checks) {
    NodeResult checked = TestRuns.checkedNode("node1", 1000, 1.0, errors, checks);
    RunRecord r =
        TestRuns.run(List.of(TestRuns.agent("node1")), List.of(TestRuns.allStep(checked)), 1, 0.05);
    return TestRuns.analysed(
        TestRuns.copy(r)
            .workload(TestRuns.workload("type: ping-pong, lock: fcntl"))
            .plan("all")
            .unanalysed()
            .build());
  }

  @Test
  void coherenceErrorsCountedOverEveryCheck() {
    ExpectationOutcome clean = judge(pingPong(0, 12_000), "coherence-errors", "== 0");
    assertThat(clean.status()).isEqualTo(ExpectationStatus.HELD);
    assertThat(clean.unit()).isEqualTo("errors");
    assertThat(clean.message())
        .isEqualTo("expect coherence-errors == 0: measured 0 (in 12,000 checks)");
    assertOutcome(
        judge(pingPong(3, 12_000), "coherence-errors", "== 0"),
        ExpectationStatus.BROKEN,
        "expect coherence-errors == 0: measured 3 (in 12,000 checks: node1 3 in all)");
    assertThat(judge(pingPong(0, 0), "coherence-errors", "== 0").message())
        .isEqualTo(
            "expect coherence-errors == 0: not measured: no coherence check was made (ping-pong"
                + " checks with io: read-write)");
  }

  @Test
  void aFailedRunJudgesNothing() {
    RunRecord failed =
        TestRuns.copy(RUN)
            .unanalysed()
            .ended(RunStatus.FAILED, "node2: prepare: EACCES /r/x", "node1: aborted")
            .build()
            .withAnalysis(RUN.analysis());
    ExpectationOutcome o = judge(failed, "efficiency", ">= 0.1");
    assertThat(o.measured()).isNull();
    assertOutcome(
        o,
        ExpectationStatus.ERROR,
        "expect efficiency >= 0.10: not judged: the run failed (node2: prepare: EACCES /r/x and"
            + " 1 more)");
    assertThat(ExpectationJudge.broken(ExpectationJudge.judged(failed, List.of()))).isZero();
  }

  @Test
  void aFigureJustBelowItsBoundIsShownWithTheDigitsThatShowIt() {
    RunRecord run = TestRuns.soloThenAll(new double[] {10_000}, new double[] {7996});
    ExpectationOutcome o = judge(run, "efficiency", ">= 0.8");
    assertThat(o.status()).isEqualTo(ExpectationStatus.BROKEN);
    assertThat(o.message()).startsWith("expect efficiency >= 0.80: measured 0.7996 (");
  }

  @Test
  void theRecordKeepsEveryOutcomeInOrderAndCountsTheBrokenOnes() {
    PlanFigures plan = PlanFigures.of(RUN);
    RunRecord judged =
        ExpectationJudge.judged(
            RUN,
            List.of(
                ExpectationParser.parse("efficiency", ">= 0.8", plan),
                ExpectationParser.parse("skew", "<= 1s", plan),
                ExpectationParser.parse("node-efficiency", ">= 0.5", plan)));
    assertThat(judged.expectations())
        .extracting(ExpectationOutcome::status)
        .containsExactly(
            ExpectationStatus.BROKEN, ExpectationStatus.HELD, ExpectationStatus.BROKEN);
    assertThat(ExpectationJudge.broken(judged)).isEqualTo(2);
    assertThat(ExpectationParser.recorded(judged))
        .extracting(Expectation::name)
        .containsExactly("efficiency >= 0.80", "skew <= 1 s", "node-efficiency >= 0.50");
  }
}

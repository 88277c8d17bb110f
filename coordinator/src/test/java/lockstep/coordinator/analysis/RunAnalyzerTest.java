package lockstep.coordinator.analysis;

import static lockstep.coordinator.analysis.TestRuns.agent;
import static lockstep.coordinator.analysis.TestRuns.allStep;
import static lockstep.coordinator.analysis.TestRuns.analysed;
import static lockstep.coordinator.analysis.TestRuns.analysedPair;
import static lockstep.coordinator.analysis.TestRuns.codes;
import static lockstep.coordinator.analysis.TestRuns.message;
import static lockstep.coordinator.analysis.TestRuns.node;
import static lockstep.coordinator.analysis.TestRuns.run;
import static lockstep.coordinator.analysis.TestRuns.soloThenAll;
import static lockstep.coordinator.analysis.TestRuns.step;
import static lockstep.coordinator.analysis.TestRuns.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.LatencyHistograms;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.ScalingPoint;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunAnalyzerTest {

  @Test
  void repeatsGiveMeanMinMaxAndSampleStddevPerNodeAndStep() {
    RunRecord r =
        analysed(
            run(
                List.of(agent("node1"), agent("node2")),
                List.of(
                    step("solo-node1-r1", "solo-node1", "solo", 1, node("node1", 100, 1.0)),
                    step("solo-node2-r1", "solo-node2", "solo", 1, node("node2", 100, 1.0)),
                    step("all-r1", "all", "all", 1, node("node1", 40, 1.0), node("node2", 60, 1.0)),
                    step("solo-node1-r2", "solo-node1", "solo", 2, node("node1", 100, 1.0)),
                    step("solo-node2-r2", "solo-node2", "solo", 2, node("node2", 100, 1.0)),
                    step("all-r2", "all", "all", 2, node("node1", 60, 1.0), node("node2", 60, 1.0)),
                    step("solo-node1-r3", "solo-node1", "solo", 3, node("node1", 100, 1.0)),
                    step("solo-node2-r3", "solo-node2", "solo", 3, node("node2", 100, 1.0)),
                    step(
                        "all-r3", "all", "all", 3, node("node1", 50, 1.0), node("node2", 60, 1.0))),
                3,
                0.05));
    StepSummary all =
        r.analysis().steps().stream()
            .filter(s -> s.group().equals("all"))
            .findFirst()
            .orElseThrow();
    assertThat(all.repeats()).isEqualTo(3);
    var n1 = all.perNode().get(0).throughput();
    assertThat(n1.n()).isEqualTo(3);
    assertThat(n1.mean()).isCloseTo(50, within(1e-6));
    assertThat(n1.min()).isCloseTo(40, within(1e-6));
    assertThat(n1.max()).isCloseTo(60, within(1e-6));
    assertThat(n1.stddev()).isCloseTo(10, within(1e-6)); // sample stddev of 40, 60, 50
    assertThat(all.aggregate().mean()).isCloseTo(110, within(1e-6));
    assertThat(all.perNode().get(0).efficiency()).isCloseTo(0.5, within(1e-6));
    assertThat(r.analysis().steps())
        .extracting(StepSummary::group)
        .containsExactly("solo-node1", "solo-node2", "all");
    assertThat(r.analysis().aggregateEfficiency()).isCloseTo(110 / 200.0, within(1e-6));
  }

  @Test
  void latencyPercentilesOverRepeatsComeFromTheMergedHistogramsNotFromAveragedPercentiles() {
    // repeat 1: 900 ops of 10 us; repeat 2: 100 ops of 10 ms. Averaging the two p50s
    // would give about 5 ms, a latency no operation had; the merged p50 is 10 us and the
    // merged p99 is 10 ms.
    NodeResult fast = withLatencies(TestRuns.building("node1", 900, 1.0), 900, 10_000);
    NodeResult slow = withLatencies(TestRuns.building("node1", 100, 1.0), 100, 10_000_000);
    RunRecord r =
        analysed(
            run(
                List.of(agent("node1")),
                List.of(
                    step("solo-node1-r1", "solo-node1", "solo", 1, fast),
                    step("solo-node1-r2", "solo-node1", "solo", 2, slow)),
                2,
                0.05));
    Latency merged = r.analysis().steps().get(0).perNode().get(0).latency();
    assertThat(merged.count()).isEqualTo(1000);
    assertThat(merged.p50Micros()).isCloseTo(10, within(0.1));
    assertThat(merged.p99Micros()).isCloseTo(10_000, within(10.0));
  }

  private static NodeResult withLatencies(TestRuns.NodeBuilder n, int count, long nanos) {
    Histogram h = LatencyHistograms.create();
    h.recordValueWithCount(nanos, count);
    n.latency = Latency.of(h);
    n.histogram = Base64.getEncoder().encodeToString(LatencyHistograms.encode(h).toByteArray());
    return n.build();
  }

  @Test
  void overlapWindowRunsFromLastFirstOpToFirstEndAndReadsWorkOffTheSeries() {
    // node1 runs 0..1 s at 100 ops/s; node2 starts at 0.5 s and runs to 2.5 s, 50 ops/s until 1 s,
    // then 150 ops/s.
    var n1 = node("node1", 100, 0.0, 1.0, 0, 0, List.of(new Sample(0.5, 50, 0, 100)));
    var n2 =
        node(
            "node2",
            25 + 225,
            0.5,
            2.5,
            500,
            0,
            List.of(new Sample(1.0, 25, 0, 50), new Sample(2.0, 175, 0, 150)));
    var s = allStep(n1, n2);
    OverlapWindow w = OverlapWindows.of(s, false);
    assertThat(w.startSeconds()).isCloseTo(0.5, within(1e-6));
    assertThat(w.endSeconds()).isCloseTo(1.0, within(1e-6));
    assertThat(w.windowByNode().get("node1")).isCloseTo(100, within(1e-6));
    assertThat(w.windowByNode().get("node2")).isCloseTo(50, within(1e-6));
    assertThat(w.windowAggregate()).isCloseTo(150, within(1e-6));
    // whole run: node2 flattered by running alone at 150/s after node1 ended
    assertThat(w.wholeAggregate()).isCloseTo(100 + 125, within(1e-6));

    RunRecord r = analysedPair(s, 0.5);
    assertThat(codes(r)).contains(FindingCode.OVERLAP);
    assertThat(r.analysis().concurrentOverlapAggregate()).isCloseTo(150, within(1e-6));
  }

  @Test
  void nodesThatNeverOverlapHaveNoWindow() {
    var s = allStep(node("node1", 10, 0.0, 1.0, 0, 0), node("node2", 10, 1.5, 2.5, 0, 0));
    assertThat(OverlapWindows.of(s, false).exists()).isFalse();
    assertThat(codes(analysedPair(s, 0.99))).contains(FindingCode.NO_OVERLAP);
  }

  @Test
  void fairnessIsJainsIndexAndMinOverMax() {
    var even = FairnessIndex.of(Map.of("a", 10.0, "b", 10.0));
    assertThat(even.jainIndex()).isCloseTo(1.0, within(1e-9));
    var oneGetsAll = FairnessIndex.of(Map.of("a", 10.0, "b", 0.0, "c", 0.0, "d", 0.0));
    assertThat(oneGetsAll.jainIndex()).isCloseTo(0.25, within(1e-9));
    var uneven = FairnessIndex.of(Map.of("a", 30.0, "b", 10.0));
    assertThat(uneven.jainIndex()).isCloseTo(1600.0 / (2 * 1000), within(1e-9));
    assertThat(uneven.minOverMax()).isCloseTo(1 / 3.0, within(1e-9));
    assertThat(uneven.slowest()).isEqualTo("b");
    assertThat(uneven.fastest()).isEqualTo("a");
  }

  @Test
  void rampGivesAScalingCurveOverNodeCounts() {
    RunRecord r =
        analysed(
            TestRuns.building(
                    List.of(agent("node1"), agent("node2"), agent("node3")),
                    List.of(
                        step("solo-node1", "solo-node1", "solo", 1, node("node1", 100, 1.0)),
                        step("solo-node2", "solo-node2", "solo", 1, node("node2", 100, 1.0)),
                        step("solo-node3", "solo-node3", "solo", 1, node("node3", 100, 1.0)),
                        step(
                            "ramp-2",
                            "ramp-2",
                            "ramp",
                            1,
                            node("node1", 80, 1.0),
                            node("node2", 80, 1.0)),
                        step(
                            "ramp-3",
                            "ramp-3",
                            "ramp",
                            1,
                            node("node1", 60, 1.0),
                            node("node2", 60, 1.0),
                            node("node3", 60, 1.0))))
                .named("r", "t")
                .createdAt("2026")
                .workload(workload("type: lock-files"))
                .plan("solo", "ramp")
                .ramp(2, 3)
                .build());
    List<ScalingPoint> curve = r.analysis().scaling();
    assertThat(curve).extracting(ScalingPoint::nodes).containsExactly(1, 2, 3);
    assertThat(curve.get(1).aggregate()).isCloseTo(160, within(1e-6));
    assertThat(curve.get(1).ideal()).isCloseTo(200, within(1e-6));
    assertThat(curve.get(1).efficiency()).isCloseTo(0.8, within(1e-6));
    assertThat(curve.get(2).aggregate()).isCloseTo(180, within(1e-6));
    assertThat(curve.get(2).efficiency()).isCloseTo(0.6, within(1e-6));
    // without an "all" step, the largest ramp step is the concurrent one
    assertThat(r.analysis().meanNodeEfficiency()).isCloseTo(0.6, within(1e-6));
  }

  @Test
  void halvedPerNodeThroughputIsCalledHalved() {
    RunRecord r = soloThenAll(new double[] {180, 162}, new double[] {86, 81});
    assertThat(codes(r)).contains(FindingCode.HALVED);
    assertThat(r.analysis().verdict().get(0))
        .contains(
            "each node kept 0.49x of its solo lock rate", "per-node lock rate roughly halved");
  }

  @Test
  void goodScalingIsNotCalledHalved() {
    RunRecord r = soloThenAll(new double[] {100, 100}, new double[] {95, 97});
    assertThat(codes(r))
        .contains(FindingCode.SCALES_WELL)
        .doesNotContain(FindingCode.HALVED, FindingCode.AGGREGATE_FLAT);
  }

  /** These steps analysed as run by node1 and node2 on GFS2, both with these settings. */
  private static RunRecord onGfs2(Map<String, String> settings, List<StepRecord> steps) {
    return analysed(
        run(
            List.of(
                agent("node1", "6.1", settings, "gfs2"), agent("node2", "6.1", settings, "gfs2")),
            steps,
            1,
            0.05));
  }

  @Test
  void flatLockRateAloneAndTogetherLooksLikeARateLimit() {
    RunRecord local = soloThenAll(new double[] {100, 101}, new double[] {99, 100});
    // a local file system (the test agents' ext4) has no lock manager and no rate limit
    assertThat(codes(local)).doesNotContain(FindingCode.RATE_LIMIT);
    RunRecord r = onGfs2(Map.of(), local.steps());
    assertThat(codes(r)).contains(FindingCode.RATE_LIMIT);
    RunRecord limited =
        onGfs2(Map.of("cluster.conf:gfs_controld.plock_rate_limit", "100"), r.steps());
    assertThat(limited.analysis().verdict()).anyMatch(v -> v.contains("plock_rate_limit is 100"));
    RunRecord uneven = soloThenAll(new double[] {2000, 1500}, new double[] {1800, 1800});
    assertThat(codes(onGfs2(Map.of(), uneven.steps()))).doesNotContain(FindingCode.RATE_LIMIT);
  }

  @Test
  void aNodeFarFromTheOthersIsAnOutlier() {
    RunRecord r = soloThenAll(new double[] {100, 100, 100}, new double[] {60, 62, 20});
    assertThat(r.analysis().findings())
        .anyMatch(f -> f.type() == FindingCode.OUTLIER && f.message().startsWith("Node node3"));
    assertThat(r.analysis().findings())
        .noneMatch(f -> f.type() == FindingCode.OUTLIER && f.message().startsWith("Node node1"));
    RunRecord slowAlone = soloThenAll(new double[] {100, 100, 40}, new double[] {50, 50, 20});
    assertThat(codes(slowAlone)).contains(FindingCode.OUTLIER_SOLO);
  }

  @Test
  void startSkewAboveTheConfiguredShareOfTheStepIsFlagged() {
    var s = allStep(node("node1", 100, 0.0, 1.0, 0, 0), node("node2", 100, 0.06, 1.06, 60, 0));
    assertThat(codes(analysedPair(s, 0.05))).contains(FindingCode.START_SKEW);
    assertThat(codes(analysedPair(s, 0.10))).doesNotContain(FindingCode.START_SKEW);
  }

  @Test
  void coherenceErrorsMakeTheRunInvalidAndComeFirst() {
    var s = allStep(node("node1", 100, 0.0, 1.0, 0, 0), node("node2", 100, 0.0, 1.0, 0, 3));
    RunRecord r = analysedPair(s, 0.05);
    assertThat(r.analysis().valid()).isFalse();
    assertThat(r.analysis().findings().get(0).severity()).isEqualTo(Severity.INVALID);
    assertThat(r.analysis().verdict().get(0)).contains("node node2 saw 3 coherence error");
    assertThat(soloThenAll(new double[] {1, 1}, new double[] {1, 1}).analysis().valid()).isTrue();
  }

  @Test
  void aPingPongNodeThatJoinedAfterTheWarmUpMakesCoherenceInconclusiveNotInvalid() {
    // node1 woke 1,088 ms after the instant, past the 500 ms warm-up: node2 ran the ring alone
    var s = allStep(node("node1", 100, 1.1, 4.5, 1088, 0), node("node2", 900, 0.5, 4.5, 0.4, 457));
    WorkloadSpec ring = workload("type: ping-pong, lock: fcntl, warmup: 500ms");
    RunRecord r = analysed(run(List.of(agent("node1"), agent("node2")), List.of(s), 1, 0.05, ring));
    assertThat(codes(r))
        .contains(FindingCode.COHERENCE_INCONCLUSIVE)
        .doesNotContain(FindingCode.COHERENCE);
    assertThat(message(r, FindingCode.COHERENCE_INCONCLUSIVE))
        .contains("node node1 1088 ms late", "after the warm-up (500 ms)", "457 increment(s)");
    assertThat(r.analysis().valid()).isTrue();

    var onTime =
        allStep(node("node1", 100, 0.5, 4.5, 3, 0), node("node2", 100, 0.5, 4.5, 0.4, 457));
    RunRecord invalid =
        analysed(run(List.of(agent("node1"), agent("node2")), List.of(onTime), 1, 0.05, ring));
    assertThat(codes(invalid))
        .contains(FindingCode.COHERENCE)
        .doesNotContain(FindingCode.COHERENCE_INCONCLUSIVE);
    assertThat(invalid.analysis().valid()).isFalse();
  }

  @Test
  void environmentDifferencesAreFlagged() {
    RunRecord r = soloThenAll(new double[] {100, 100}, new double[] {90, 90});
    RunRecord diff =
        analysed(
            run(
                List.of(
                    agent("node1", "6.1.0", Map.of("ocfs2:localalloc", "16")),
                    agent("node2", "5.10.0", Map.of())),
                r.steps(),
                1,
                0.05));
    Analysis a = diff.analysis();
    assertThat(a.environmentDifferences())
        .anyMatch(d -> d.startsWith("kernel differs: node1 6.1.0; node2 5.10.0"));
    assertThat(a.environmentDifferences())
        .anyMatch(d -> d.startsWith("ocfs2:localalloc differs: node1 16; node2 (not set)"));
    assertThat(codes(diff)).contains(FindingCode.ENVIRONMENT);
    assertThat(r.analysis().environmentDifferences()).isEmpty();
  }

  @Test
  void noisyRepeatsAreReported() {
    RunRecord r =
        analysed(
            run(
                List.of(agent("node1")),
                List.of(
                    step("solo-node1-r1", "solo-node1", "solo", 1, node("node1", 100, 1.0)),
                    step("solo-node1-r2", "solo-node1", "solo", 2, node("node1", 200, 1.0))),
                2,
                0.05));
    assertThat(codes(r)).contains(FindingCode.NOISY);
  }
}

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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

class NoiseVerdictsTest {

  private static RunRecord withAgents(RunRecord r, List<AgentRecord> agents) {
    return analysed(r.withAgents(agents));
  }

  @Test
  void aSlowSoloNodeOnTheSameMachineIsNeverCalledAHardwareOutlier() {
    RunRecord slowAlone = soloThenAll(new double[] {100, 100, 40}, new double[] {50, 50, 20});
    List<AgentRecord> oneMachine =
        List.of(
            agent("node1").withBootId("b1"),
            agent("node2").withBootId("b1"),
            agent("node3").withBootId("b1"));
    RunRecord r = withAgents(slowAlone, oneMachine);
    assertThat(codes(r))
        .contains(FindingCode.SAME_MACHINE)
        .doesNotContain(FindingCode.OUTLIER_SOLO);
    assertThat(message(r, FindingCode.SAME_MACHINE))
        .contains("Node node3", "node1, node2", "not hardware", "not yet trustworthy", "repeat: 5");
    assertThat(r.analysis().verdict()).noneMatch(v -> v.contains("hardware and settings"));
  }

  @Test
  void sameHostnameWithAnotherBootOrNoBootIdIsStillAnotherMachine() {
    RunRecord slowAlone = soloThenAll(new double[] {100, 100, 40}, new double[] {50, 50, 20});
    RunRecord otherBoot =
        withAgents(
            slowAlone,
            List.of(
                agent("node1").withBootId("b1"),
                agent("node2").withBootId("b1"),
                agent("node3").withBootId("b2")));
    assertThat(codes(otherBoot))
        .contains(FindingCode.OUTLIER_SOLO)
        .doesNotContain(FindingCode.SAME_MACHINE);
    RunRecord unknown =
        withAgents(slowAlone, List.of(agent("node1"), agent("node2"), agent("node3")));
    assertThat(codes(unknown)).contains(FindingCode.OUTLIER_SOLO);
  }

  @Test
  void repeatsThatDisagreeMoreThanTheEffectMakeTheFigureNotYetTrustworthy() {
    // each node keeps about 0.95x alone vs together (a 5% effect); the "all" repeats vary by about
    // 30%
    List<StepRecord> steps = new ArrayList<>();
    steps.add(step("solo-node1", "solo-node1", "solo", 1, node("node1", 100, 1.0)));
    steps.add(step("solo-node2", "solo-node2", "solo", 1, node("node2", 100, 1.0)));
    steps.add(step("all-r1", "all", "all", 1, node("node1", 130, 1.0), node("node2", 130, 1.0)));
    steps.add(step("all-r2", "all", "all", 2, node("node1", 65, 1.0), node("node2", 65, 1.0)));
    RunRecord r = analysed(run(List.of(agent("node1"), agent("node2")), steps, 2, 0.05));
    assertThat(codes(r)).contains(FindingCode.NOT_TRUSTWORTHY);
    assertThat(message(r, FindingCode.NOT_TRUSTWORTHY))
        .contains("step all", "more than the effect", "repeat: 5");

    List<StepRecord> steady = new ArrayList<>(steps.subList(0, 2));
    steady.add(step("all-r1", "all", "all", 1, node("node1", 51, 1.0), node("node2", 51, 1.0)));
    steady.add(step("all-r2", "all", "all", 2, node("node1", 49, 1.0), node("node2", 49, 1.0)));
    assertThat(codes(analysed(run(List.of(agent("node1"), agent("node2")), steady, 2, 0.05))))
        .doesNotContain(FindingCode.NOT_TRUSTWORTHY);
  }

  private static List<Sample> series(
      double seconds, int samples, double firstQuarterRate, double restRate) {
    List<Sample> out = new ArrayList<>();
    double ops = 0;
    double prevT = 0;
    for (int i = 1; i <= samples; i++) {
      double t = seconds * i / samples;
      double q = seconds / 4;
      double a = Math.min(t, q) - Math.min(prevT, q);
      double b = (t - prevT) - a;
      ops += a * firstQuarterRate + b * restRate;
      out.add(new Sample(t, (long) ops, 0, 0));
      prevT = t;
    }
    return out;
  }

  private static NodeResult withSeries(String name, List<Sample> series) {
    long ops = series.get(series.size() - 1).ops();
    return node(name, ops, 0.0, series.get(series.size() - 1).t(), 0, 0, series);
  }

  /** The analysed run of one step, node1 alone, with this result. */
  private static RunRecord aloneOnNode1(NodeResult node1) {
    return analysed(
        run(
            List.of(agent("node1")),
            List.of(step("solo-node1", "solo-node1", "solo", 1, node1)),
            1,
            0.05));
  }

  @Test
  void aRampInTheTimeSeriesIsUnsteady() {
    NodeResult ramp = withSeries("node1", series(2.0, 20, 2000, 10000));
    assertThat(NoiseVerdicts.firstQuarterOverRest(ramp, 0).getAsDouble())
        .isCloseTo(0.2, within(0.02));
    RunRecord r = aloneOnNode1(ramp);
    assertThat(codes(r)).contains(FindingCode.UNSTEADY);
    assertThat(message(r, FindingCode.UNSTEADY))
        .contains("step solo-node1", "node1 20%", "not yet trustworthy", "repeat: 5");

    NodeResult flat = withSeries("node1", series(2.0, 20, 10000, 10000));
    assertThat(NoiseVerdicts.firstQuarterOverRest(flat, 0).getAsDouble())
        .isCloseTo(1.0, within(0.02));
    assertThat(codes(aloneOnNode1(flat))).doesNotContain(FindingCode.UNSTEADY);
  }

  @Test
  void aWarmUpThatCountsNothingIsNoRamp() {
    // ping-pong: the ring runs 1 s uncounted, then 4 s at a flat rate; samples from the instant
    List<Sample> series = new ArrayList<>();
    for (int i = 1; i <= 25; i++) {
      double t = i * 0.2;
      series.add(new Sample(t, (long) (Math.max(0, t - 0.95) * 10_000), 0, 0));
    }
    NodeResult warm = TestRuns.node("node1", 40_500, 0.95, 5.0, 0.1, 0, series);
    assertThat(NoiseVerdicts.firstQuarterOverRest(warm, TestRuns.ORIGIN).getAsDouble())
        .isCloseTo(1.0, within(0.02));
    // counted from the start skew (the warm-up ring's first lock) it would look like a ramp
    assertThat(NoiseVerdicts.firstQuarterOverRest(warm, 0).getAsDouble()).isLessThan(0.1);
    assertThat(codes(aloneOnNode1(warm))).doesNotContain(FindingCode.UNSTEADY);
  }

  @Test
  void tooFewSamplesSayNothingAboutSteadiness() {
    NodeResult shortRun = withSeries("node1", series(0.3, 3, 2000, 10000));
    assertThat(NoiseVerdicts.firstQuarterOverRest(shortRun, 0)).isEmpty();
  }

  @Test
  void aClockUncertaintyTooLargeForTheStepIsFlaggedLikeALargeSkew() {
    // skew 0.5 ms on a 1 s step is fine; a clock known only to +-80 ms is not (threshold 5%)
    TestRuns.NodeBuilder uncertain = TestRuns.building("node1", 100, 0.0, 1.0);
    uncertain.skewMillis = 0.5;
    uncertain.clockUncertaintyMillis = 80;
    NodeResult a = uncertain.build();
    NodeResult b = node("node2", 100, 0.0, 1.0, 0.2, 0);
    StepRecord s = allStep(a, b);
    assertThat(RunAnalyzer.maxClockUncertaintyMillis(s)).isEqualTo(80);
    assertThat(RunAnalyzer.skewTooLarge(s, 0.05)).isTrue();
    RunRecord r = analysedPair(s, 0.05);
    assertThat(message(r, FindingCode.START_SKEW)).contains("known only to ± 80.0 ms");
    StepRecord fine = allStep(b, b);
    assertThat(RunAnalyzer.skewTooLarge(fine, 0.05)).isFalse();
  }
}

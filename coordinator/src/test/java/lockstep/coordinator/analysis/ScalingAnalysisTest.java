package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

/**
 * The analysis on seed 2's published numbers (inputs, not outputs: 180/162 alone, 85.6/80.9
 * together).
 */
class ScalingAnalysisTest {
  private static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0, 0);

  private static NodeResult node(String name, double mbps, double skewMs) {
    return new NodeResult(
        name,
        RunStatus.OK,
        1,
        (long) (mbps * 1e6),
        1.0,
        mbps,
        skewMs,
        0,
        0,
        1,
        2,
        NONE,
        "",
        List.of(),
        null,
        1,
        0,
        0,
        0,
        null,
        List.of(),
        null);
  }

  private static StepRecord step(
      String id, String kind, double skewMs, double seconds, NodeResult... nodes) {
    double sum = 0;
    for (NodeResult n : nodes) {
      sum += n.throughput();
    }
    return new StepRecord(
        id,
        kind,
        Arrays.stream(nodes).map(NodeResult::node).toList(),
        1,
        RunStatus.OK,
        List.of(nodes),
        new Aggregate(seconds, 1, 1, sum, sum, skewMs, NONE, ""),
        List.of(),
        id,
        1,
        List.of(),
        List.of());
  }

  private static Analysis analyse(StepRecord... steps) {
    return RunAnalyzer.analyse(run(List.of(steps)));
  }

  private static RunRecord run(List<StepRecord> steps) {
    return TestRuns.building(
            List.of(TestRuns.bareAgent("orca", "a:1"), TestRuns.bareAgent("porpoise", "b:1")),
            steps)
        .named("r", "seed2")
        .createdAt("now")
        .version("dev")
        .workload(TestRuns.workload("type: write, size: 1MiB"))
        .build();
  }

  /** Seed 2: orca alone, porpoise alone, then both together. */
  private static Analysis seed2() {
    return analyse(
        step("solo-orca", "solo", 0.1, 11, node("orca", 180, 0.1)),
        step("solo-porpoise", "solo", 0.1, 12, node("porpoise", 162, 0.1)),
        step("all", "all", 0.2, 24, node("orca", 85.6, 0.1), node("porpoise", 80.9, 0.2)));
  }

  @Test
  void seed2HalvesEachNode() {
    var a = seed2();
    assertThat(a.nodes().get(0).efficiency()).isCloseTo(85.6 / 180, within(1e-9));
    assertThat(a.nodes().get(1).efficiency()).isCloseTo(80.9 / 162, within(1e-9));
    assertThat(a.sumOfSolos()).isCloseTo(342, within(1e-9));
    assertThat(a.aggregateEfficiency()).isCloseTo(166.5 / 342, within(1e-9));
    assertThat(a.verdict().get(0))
        .contains("each node kept 0.49x of its solo write throughput")
        .contains("scaling loss 51%");
    assertThat(a.verdict()).anyMatch(v -> v.contains("did not grow with more nodes"));
  }

  @Test
  void warnsWhenStartSkewIsALargeShareOfTheStep() {
    var a = analyse(step("all", "all", 300, 2.0, node("orca", 100, 0), node("porpoise", 100, 300)));
    assertThat(a.verdict())
        .anyMatch(v -> v.startsWith("Start skew in step all was 300.0 ± 0.0 ms, 15%"));
    assertThat(a.nodes().get(0).efficiency()).isNull();
  }

  @Test
  void noLossMeansScalesWell() {
    var a =
        analyse(
            step("solo-orca", "solo", 0, 1, node("orca", 100, 0)),
            step("solo-porpoise", "solo", 0, 1, node("porpoise", 100, 0)),
            step("all", "all", 0.1, 1, node("orca", 97, 0), node("porpoise", 99, 0.1)));
    assertThat(a.verdict().get(0)).contains("scale well");
    assertThat(a.verdict()).noneMatch(v -> v.contains("did not grow"));
  }
}

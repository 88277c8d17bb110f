package lockstep.coordinator.analysis;

import static lockstep.coordinator.analysis.TestRuns.agent;
import static lockstep.coordinator.analysis.TestRuns.analysed;
import static lockstep.coordinator.analysis.TestRuns.node;
import static lockstep.coordinator.analysis.TestRuns.run;
import static lockstep.coordinator.analysis.TestRuns.step;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.compare.CompareHtmlReport;
import lockstep.coordinator.report.compare.CompareTextReport;
import lockstep.coordinator.report.compare.RunComparison;
import lockstep.coordinator.report.compare.Significance.Verdict;
import lockstep.coordinator.report.compare.SignificanceTable;
import org.junit.jupiter.api.Test;

/**
 * `lockstep compare` of two hand-built runs with repeats: per step, per node and for the aggregate,
 * B / A with its interval and the call in words, in the text and HTML outputs.
 */
class CompareSignificanceTest {
  /**
   * Solo of node1 and node2, then both, once per repeat: each repeat's ops/s (over 1 s) of node1
   * alone, node2 alone, then node1 and node2 together.
   */
  private static RunRecord repeated(double[]... repeats) {
    List<StepRecord> steps = new ArrayList<>();
    for (int r = 0; r < repeats.length; r++) {
      double[] ops = repeats[r];
      int rep = r + 1;
      steps.add(
          step("solo-node1-r" + rep, "solo-node1", "solo", rep, node("node1", (long) ops[0], 1.0)));
      steps.add(
          step("solo-node2-r" + rep, "solo-node2", "solo", rep, node("node2", (long) ops[1], 1.0)));
      steps.add(
          step(
              "all-r" + rep,
              "all",
              "all",
              rep,
              node("node1", (long) ops[2], 1.0),
              node("node2", (long) ops[3], 1.0)));
    }
    return analysed(run(List.of(agent("node1"), agent("node2")), steps, repeats.length, 0.05));
  }

  // each row a repeat: node1 alone, node2 alone, node1 together, node2 together
  private final RunRecord before =
      repeated(
          new double[] {1000, 3000, 500, 1500},
          new double[] {1050, 2100, 520, 1050},
          new double[] {980, 3900, 490, 1950});

  /** node1 together doubled; node2 together up 20% within its 30% noise; solos unchanged. */
  private final RunRecord after =
      repeated(
          new double[] {1010, 2950, 1000, 1800},
          new double[] {1040, 2200, 1040, 1260},
          new double[] {990, 3800, 980, 2340});

  @Test
  void eachStepNodeAndAggregateGetsAnIntervalAndACall() {
    SignificanceTable t = SignificanceTable.of(before, after);
    assertThat(t.lines())
        .extracting(l -> l.step() + "/" + l.node())
        .containsExactly(
            "solo-node1/node1",
            "solo-node2/node2",
            "all/node1",
            "all/node2",
            "all/" + SignificanceTable.ALL_NODES);
    var all1 = t.lines().get(2);
    assertThat(all1.s().verdict()).isEqualTo(Verdict.DIFFERENT);
    assertThat(all1.s().low()).isGreaterThan(1.5);
    assertThat(all1.s().high()).isLessThan(2.6);
    var all2 = t.lines().get(3);
    assertThat(all2.s().verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(all2.s().ratio()).isCloseTo(1.2, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(t.lines().get(0).s().verdict()).isEqualTo(Verdict.WITHIN_NOISE);
  }

  @Test
  void theTextAndHtmlComparisonsShowTheIntervalsAndSayWhatIsNoise() {
    RunComparison c = RunComparison.of(before, after);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CompareTextReport.print(c, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String text = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertThat(text)
        .contains("Significance: B / A per step with its 95% confidence interval")
        .containsPattern(
            "all +node1 +503 \\(3\\) +1,007 \\(3\\) +2\\.00x +\\[\\d\\.\\d\\dx \\.\\."
                + " \\d\\.\\d\\dx\\] +different \\(p ")
        .containsPattern(
            "all +node2 .* 1\\.20x +\\[0\\.\\d\\dx \\.\\. \\d\\.\\d\\dx\\] +within the noise \\(p ="
                + " 0\\.\\d+\\); repeat: \\d+ on both sides would tell a 20\\.0% difference")
        .contains("  beyond the repeats' noise (95%): all node1 2.00x.")
        .contains(
            "  within the repeats' noise, may be chance: solo-node1 node1, solo-node2 node2, all"
                + " node2, all (all nodes).");
    String html = CompareHtmlReport.render(c);
    assertThat(html)
        .contains("<h2>Significance</h2>")
        .contains("within the noise (p = ")
        .contains("different (p ");
  }

  @Test
  void theJsonComparisonCarriesEachIntervalAndCall() throws Exception {
    var json =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                lockstep.coordinator.report.compare.CompareJson.render(
                    RunComparison.of(before, after)));
    var all1 = json.path("significance").get(2);
    assertThat(all1.path("step").asText()).isEqualTo("all");
    assertThat(all1.path("node").asText()).isEqualTo("node1");
    assertThat(all1.path("call").asText()).isEqualTo("different");
    assertThat(all1.path("ciLow").asDouble()).isGreaterThan(1.5);
    assertThat(all1.path("aRepeats").asInt()).isEqualTo(3);
    var all2 = json.path("significance").get(3);
    assertThat(all2.path("call").asText()).isEqualTo("within-noise");
    assertThat(all2.path("repeatsToSettle").asInt()).isGreaterThan(3);
    assertThat(json.path("rows").get(0).path("label").asText()).isEqualTo("node1");
  }

  @Test
  void runsWithoutRepeatsAreNotJudgedAndSaySo() {
    RunRecord a = repeated(new double[] {1000, 1000, 500, 500});
    RunRecord b = repeated(new double[] {1100, 1000, 900, 500});
    SignificanceTable t = SignificanceTable.of(a, b);
    assertThat(t.lines())
        .allSatisfy(l -> assertThat(l.s().verdict()).isEqualTo(Verdict.TOO_FEW_REPEATS));
    assertThat(t.summary())
        .containsExactly(
            "not judged (fewer than 2 repeats on a side) in step(s) solo-node1, solo-node2, all:"
                + " run both with repeat: 3 or more");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CompareTextReport.print(
        RunComparison.of(a, b), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    // one sentence, not a table of "not judged"
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains(
            "Significance: not judged (fewer than 2 repeats on a side) in step(s) solo-node1,"
                + " solo-node2, all: run both with repeat: 3 or more.")
        .doesNotContain("95% CI");
  }
}

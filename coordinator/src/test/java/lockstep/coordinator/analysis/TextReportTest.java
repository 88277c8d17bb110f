package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OperationFigures;
import lockstep.coordinator.report.TextReport;
import org.junit.jupiter.api.Test;

/** The terminal report prints what it is given, including the workload suite's extra figures. */
class TextReportTest {
  private static String print(lockstep.coordinator.model.RunRecord run) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    TextReport.print(run, new PrintStream(buf, true, StandardCharsets.UTF_8));
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsTheScalingTableAndVerdict() {
    String text = print(TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {500, 500}));
    assertThat(text).contains("Scaling (all nodes at once vs each node alone", "0.50x", "Verdict");
    assertThat(text).doesNotContain("workload figures");
  }

  @Test
  void printsCoherenceRetriesAndPerOperationRates() {
    TestRuns.NodeBuilder b = TestRuns.building("node1", 1000, 1.0);
    b.coherenceErrors = 3;
    b.coherenceChecks = 1200;
    b.lockRetries = 7;
    b.operations =
        List.of(
            new OperationFigures(
                "create", 500, 0.5, 1000, new Latency(500, 1, 1, 1, 12.5, 20, 30)));
    NodeResult n = b.build();
    var run =
        TestRuns.analysed(
            TestRuns.run(List.of(TestRuns.agent("node1")), List.of(TestRuns.allStep(n)), 1, 0.05));
    String text = print(run);
    assertThat(text)
        .contains(
            "workload figures",
            "coherence errors 3 of 1200 checks",
            "try-lock retries 7",
            "create 1,000/s (p99 12.5 us)");
  }

  @Test
  void everySkewIsPrintedWithItsClockUncertainty() {
    // TestRuns nodes: skew 1 ms, uncertainty 0.1 ms
    String text = print(TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {500, 500}));
    assertThat(text).contains("skew ± clock ms", "1.000 ± 0.100");
    String html =
        lockstep.coordinator.report.html.RunHtmlReport.render(
            TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {500, 500}));
    assertThat(html)
        .contains(
            "start skew ± clock ms", "+1.000 ± 0.100", "max |skew| ± clock ms", "1.000 ± 0.100 ms");
  }
}

package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.ResourcePoint;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.compare.ResourceComparison;
import lockstep.coordinator.report.compare.ResourceComparison.Line;
import lockstep.coordinator.report.csv.CsvExport;
import lockstep.coordinator.report.csv.ResourceRow;
import lockstep.coordinator.report.html.RunHtmlReport;
import org.junit.jupiter.api.Test;

/** Resource figures in report.html, resources.csv and compare, from constructed runs. */
class ResourceReportsTest {

  static NodeResult node(String name, double deviceBusy, double cpuBusy, Double lockShare) {
    ResourceFigures run =
        BottlenecksTest.figures(cpuBusy, cpuBusy / 2, "vda", deviceBusy, "lo", 2.5, null, 4096);
    ResourceFigures idle = BottlenecksTest.figures(3, 1, "vda", 1, "lo", 0.01, null, 4096);
    TestRuns.NodeBuilder n = TestRuns.building(name, 1000, 1.0);
    n.resources =
        new NodeResources(
            "vda",
            List.of(),
            2,
            idle,
            run,
            List.of(
                new ResourcePoint(0.1, cpuBusy, 0, 10, deviceBusy, 50, 2.5, 4096),
                new ResourcePoint(0.2, cpuBusy, 0, 10, deviceBusy, 50, 2.5, 4096)),
            lockShare);
    return n.build();
  }

  static RunRecord analysed(double deviceBusy, double cpuBusy) {
    RunRecord r =
        BottlenecksTest.run(
            "type: lock-files",
            TestRuns.step("solo-orca", "solo-orca", "solo", 1, node("orca", 5, 8, 0.9)),
            TestRuns.allStep(
                node("orca", deviceBusy, cpuBusy, 0.9),
                node("porpoise", deviceBusy, cpuBusy, 0.9)));
    return r.withAnalysis(RunAnalyzer.analyse(r));
  }

  @Test
  void reportHtmlHasTheSectionPerStepWithBottleneckChartAndBaseline() {
    String html = RunHtmlReport.render(analysed(3, 8));
    assertThat(html)
        .contains(
            "<h2>Where the time went</h2>",
            "id=\"chart-resources-all\"",
            "id=\"chart-resources-solo-orca\"",
            "data-code=\"waiting\"",
            "idle baseline",
            "device busy %",
            "CPU busy %",
            "network MB/s",
            "start instant");
  }

  @Test
  void reportHtmlWithoutSamplesHasNoSection() {
    var r = BottlenecksTest.run("type: lock-files", TestRuns.allStep(TestRuns.node("orca", 10, 1)));
    assertThat(RunHtmlReport.render(r.withAnalysis(RunAnalyzer.analyse(r))))
        .doesNotContain("<h2>Where the time went</h2>");
  }

  @Test
  void resourcesCsvHasBaselineRunAndIntervalRows() {
    List<ResourceRow> rows = CsvExport.resourceRows(analysed(3, 8));
    assertThat(rows)
        .extracting(ResourceRow::span)
        .containsExactly(
            "baseline",
            "run",
            "interval",
            "interval",
            "baseline",
            "run",
            "interval",
            "interval",
            "baseline",
            "run",
            "interval",
            "interval");
    ResourceRow run = rows.get(5);
    assertThat(run.step()).isEqualTo("all");
    assertThat(run.node()).isEqualTo("orca");
    assertThat(run.device()).isEqualTo("vda");
    assertThat(run.cpuBusyPercent()).isEqualTo(8);
    assertThat(run.t()).isEqualTo(0.2);
  }

  @Test
  void compareShowsBothRunsFiguresAndWhetherTheBottleneckMoved() {
    var c = ResourceComparison.of(analysed(3, 8), analysed(95, 20));
    assertThat(c.bottlenecks())
        .anySatisfy(
            b -> {
              assertThat(b.step()).isEqualTo("all");
              assertThat(b.a()).startsWith("waiting:");
              assertThat(b.b()).startsWith("storage-bound:");
            });
    assertThat(c.lines())
        .extracting(Line::step, Line::figure, Line::a, Line::b)
        .contains(tuple("all", "device busy", "3% (vda)", "95% (vda)"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    c.print(new PrintStream(out, true, StandardCharsets.UTF_8));
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("Where the time went (A vs B)", "A: waiting", "B: storage-bound");
    assertThat(c.html()).contains("Where the time went (A vs B)", "95% (vda)");
  }

  @Test
  void cpuBoundNamesTheIdleBaseline() {
    var f =
        Bottlenecks.judge(
            "all",
            List.of(NodeLoad.of("orca", List.of(node("orca", 5, 97, null)))),
            Map.of(),
            null);
    assertThat(f.type()).isEqualTo(FindingCode.CPU_BOUND);
    assertThat(f.message()).contains("97% busy (3% in the idle baseline before the start)");
  }
}

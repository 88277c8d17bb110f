package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.cli.LockstepCli;
import lockstep.coordinator.local.LocalAgents;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.RunLocator;
import lockstep.coordinator.report.compare.CompareHtmlReport;
import lockstep.coordinator.report.compare.CompareTextReport;
import lockstep.coordinator.report.compare.RunComparison;
import lockstep.coordinator.report.csv.CsvExport;
import lockstep.coordinator.report.csv.NodeStepRow;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;
import lockstep.coordinator.session.RunSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Real runs on real local agent processes, then every output a user looks at: report.html in
 * headless Chromium (the charts drew, no console errors), CSV/JSON from run.json, compare of two
 * runs, history.
 */
class ReportIT {
  private static Path work;
  private static Path results;
  private static RunSession.Outcome lockA;
  private static RunSession.Outcome lockB;
  private static RunSession.Outcome writeRamp;

  @BeforeAll
  static void runThreeRealRuns() throws IOException {
    work = Files.createTempDirectory("lockstep-report-it-");
    results = work.resolve("results");
    try (LocalAgents agents = LocalAgents.start(2, work)) {
      String lock =
          """
          name: it-lock
          plan: [solo, all]
          repeat: 2
          workload: {type: lock-files, processes: 2, files: 150, lock: fcntl}
          """;
      String write =
          """
          name: it-write-ramp
          plan: [solo, ramp]
          workload: {type: write, block-size: 64KiB, size: 24MiB}
          """;
      PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
      lockA = run(lock, agents, quiet);
      lockB = run(lock, agents, quiet);
      writeRamp = run(write, agents, quiet);
    }
  }

  private static RunSession.Outcome run(String yaml, LocalAgents agents, PrintStream out) {
    Scenario s = new ScenarioParser().parse(yaml, "it.yaml").withAgents(agents.addresses());
    RunSession.Outcome o = new RunSession(out).execute(s, results);
    assertThat(o.ok()).as("run %s: %s", s.name(), o.run().errors()).isTrue();
    return o;
  }

  @AfterAll
  static void removeWork() throws IOException {
    if (work != null) {
      try (Stream<Path> w = Files.walk(work)) {
        w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void everyRunLeavesRunJsonCsvAndReportHtml() {
    for (RunSession.Outcome o : List.of(lockA, lockB, writeRamp)) {
      Path dir = o.runJson().getParent();
      assertThat(dir.resolve("run.json")).isRegularFile();
      assertThat(dir.resolve("steps.csv")).isRegularFile();
      assertThat(dir.resolve("series.csv")).isRegularFile();
      assertThat(dir.resolve("report.html")).isRegularFile();
    }
    RunRecord r = lockA.run();
    assertThat(r.steps())
        .extracting(s -> s.id())
        .containsExactly(
            "solo-node1-r1", "solo-node2-r1", "all-r1", "solo-node1-r2", "solo-node2-r2", "all-r2");
    assertThat(r.analysis().steps())
        .extracting(s -> s.group())
        .containsExactly("solo-node1", "solo-node2", "all");
    assertThat(r.analysis().steps().get(2).aggregate().n()).isEqualTo(2);
    assertThat(r.agents())
        .allSatisfy(
            a -> {
              assertThat(a.kernel()).isNotBlank();
              assertThat(a.cpuCount()).isPositive();
              assertThat(a.memoryBytes()).isPositive();
            });
    assertThat(writeRamp.run().ramp()).containsExactly(1, 2);
    assertThat(writeRamp.run().analysis().scaling()).extracting(p -> p.nodes()).contains(1, 2);
  }

  @Test
  void reportHtmlDrawsItsChartsInChromiumWithoutConsoleErrors() throws IOException {
    Chromium.assumeInstalled();
    try (Chromium chromium = Chromium.start()) {
      for (RunSession.Outcome o : List.of(lockA, writeRamp)) {
        WebDriver page = chromium.open(o.runJson().resolveSibling("report.html"));
        List<WebElement> boxes = page.findElements(By.cssSelector("div.chart-box"));
        assertThat(boxes).hasSizeGreaterThanOrEqualTo(4);
        assertThat(page.findElement(By.tagName("body")).getAttribute("data-charts-drawn"))
            .isEqualTo(Integer.toString(boxes.size()));
        for (WebElement box : boxes) {
          List<WebElement> svg = box.findElements(By.tagName("svg"));
          assertThat(svg).as("chart %s has an svg", box.getAttribute("id")).hasSize(1);
          assertThat(svg.get(0).findElements(By.cssSelector("path")).size())
              .as("chart %s drew shapes", box.getAttribute("id"))
              .isGreaterThan(5);
          assertThat(svg.get(0).getSize().getHeight()).isGreaterThan(100);
        }
        assertThat(page.findElement(By.id("chart-solo-vs-together")).getText())
            .contains("node1", "node2");
        assertThat(page.findElement(By.cssSelector("section.verdict")).getText())
            .contains("Verdict");
        assertThat(page.findElements(By.cssSelector("[id^=chart-series-]"))).isNotEmpty();
        assertThat(page.findElement(By.cssSelector("[id^=chart-series-]")).getText())
            .contains("start instant");
        assertThat(chromium.consoleErrors()).as("console errors in %s", o.runJson()).isEmpty();
      }
      RunComparison c = RunComparison.of(lockA.run(), writeRamp.run());
      Path html = work.resolve("compare.html");
      ResultsStore.writeAtomically(html, CompareHtmlReport.render(c));
      WebDriver page = chromium.open(html);
      assertThat(
              page.findElement(By.id("chart-compare"))
                  .findElements(By.cssSelector("svg path"))
                  .size())
          .isGreaterThan(5);
      assertThat(chromium.consoleErrors()).isEmpty();
    }
  }

  @Test
  void compareOfTwoRealRunsGivesRatiosPerNodeAndAggregate() {
    RunComparison c = RunComparison.of(lockA.run(), lockB.run());
    assertThat(c.warnings()).isEmpty();
    RunComparison.NodeRow n1 = c.nodes().get(0);
    double a = lockA.run().analysis().nodes().get(0).concurrent();
    double b = lockB.run().analysis().nodes().get(0).concurrent();
    assertThat(n1.together().ratio()).isCloseTo(b / a, within(1e-9));
    assertThat(c.aggregate().ratio())
        .isCloseTo(
            lockB.run().analysis().concurrentSumOfNodes()
                / lockA.run().analysis().concurrentSumOfNodes(),
            within(1e-9));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    CompareTextReport.print(c, new PrintStream(text, true, StandardCharsets.UTF_8));
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("node1", "together", "B / A", "B reached");

    RunComparison unlike = RunComparison.of(lockA.run(), writeRamp.run());
    assertThat(unlike.warnings())
        .anyMatch(w -> w.startsWith("the workloads differ: A ran lock-files, B ran write"));
  }

  @Test
  void theCliRebuildsEveryOutputFromRunJsonAndListsHistory() throws IOException {
    Path dir = lockA.runJson().getParent();
    Files.delete(dir.resolve("steps.csv"));
    Files.delete(dir.resolve("report.html"));
    assertThat(
            cli("report", lockA.run().runId(), "--out", results.toString(), "--format", "csv").code)
        .isZero();
    List<NodeStepRow> rows = CsvExport.read(dir.resolve("steps.csv"), NodeStepRow.class);
    assertThat(rows).hasSize(2 * 2 + 2 * 2); // 2 solo steps and one 2-node step, twice
    assertThat(cli("report", dir.toString(), "--format", "html").code).isZero();
    assertThat(dir.resolve("report.html")).isRegularFile();
    Result json = cli("report", lockA.runJson().toString(), "--format", "json");
    assertThat(json.code).isZero();
    assertThat(ResultsStore.json().readValue(json.out, RunRecord.class).steps())
        .isEqualTo(lockA.run().steps());
    Result text = cli("report", lockA.run().runId(), "--out", results.toString());
    assertThat(text.out).contains("Verdict", "Scaling");
    assertThat(RunLocator.load(lockA.runJson()).analysis().verdict())
        .isEqualTo(lockA.run().analysis().verdict());

    Result history = cli("history", "--out", results.toString());
    assertThat(history.code).isZero();
    List<String> lines = history.out.lines().skip(1).toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith(writeRamp.run().runId());
    assertThat(lines.get(2))
        .startsWith(lockA.run().runId())
        .contains("lock-files", "locks/s together");

    Result compare =
        cli(
            "compare",
            lockA.run().runId(),
            lockB.run().runId(),
            "--out",
            results.toString(),
            "--html",
            work.resolve("c.html").toString());
    assertThat(compare.code).isZero();
    assertThat(work.resolve("c.html")).isRegularFile();

    Result missing = cli("report", "no-such-run", "--out", results.toString());
    assertThat(missing.code).isEqualTo(LockstepCli.EXIT_USAGE);
    assertThat(missing.err.strip())
        .startsWith("lockstep: run 'no-such-run': no such run id")
        .doesNotContain("Exception");
    assertThat(
            cli("report", lockA.run().runId(), "--out", results.toString(), "--format", "pdf").code)
        .isEqualTo(LockstepCli.EXIT_USAGE);
  }

  record Result(int code, String out, String err) {}

  private static synchronized Result cli(String... args) {
    PrintStream oldOut = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      var cmd = LockstepCli.commandLine();
      cmd.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
      int code = cmd.execute(args);
      return new Result(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
    }
  }
}

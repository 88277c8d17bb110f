package lockstep.coordinator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.ErrorRecord;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.ExpectationStatus;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OperationFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.csv.CsvExport;
import lockstep.coordinator.report.csv.NodeStepRow;
import lockstep.coordinator.report.csv.SeriesRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoundTripTest {
  @TempDir Path dir;

  static RunRecord sample() {
    long o = 1_700_000_000_000_000_000L;
    Latency lat = new Latency(3, 1.5, 1, 2, 3, 4, 5);
    NodeResult a =
        new NodeResult(
            "node1",
            RunStatus.OK,
            300,
            3_000_000,
            1.0,
            3.0,
            0.25,
            1.5,
            0.1,
            o + 1_000_000,
            o + 1_001_000_000,
            lat,
            "HISTO",
            List.of(new Sample(0.5, 150, 1_500_000, 3.0), new Sample(1.0, 300, 3_000_000, 3.0)),
            null,
            1,
            0,
            0,
            4,
            0.75,
            List.of(new OperationFigures("write", 300, 1.0, 300, lat)),
            null);
    NodeResult b =
        new NodeResult(
            "node2, \"quoted\"",
            RunStatus.FAILED,
            100,
            1_000_000,
            1.0,
            1.0,
            -0.5,
            -2,
            0.1,
            o + 2_000_000,
            o + 1_002_000_000,
            lat,
            "HISTO",
            List.of(new Sample(0.7, 70, 700_000, 1.0)),
            new ErrorRecord("write", "f", 28, "ENOSPC", "No space left on device, really"),
            1,
            2,
            500,
            0,
            0.25,
            List.of(),
            null);
    StepRecord s =
        new StepRecord(
            "all-r1",
            "all",
            List.of("node1", "node2, \"quoted\""),
            o,
            RunStatus.FAILED,
            List.of(a, b),
            new Aggregate(1.001, 400, 4_000_000, 3.99, 4.0, 0.5, lat, "H"),
            List.of("node2: failed"),
            "all",
            1,
            List.of(),
            List.of(
                new NodeResult(
                    "server",
                    RunStatus.OK,
                    0,
                    0,
                    1.2,
                    0,
                    0,
                    -3,
                    0.2,
                    0,
                    o + 1_201_000_000,
                    lat,
                    "",
                    List.of(),
                    null,
                    0,
                    0,
                    0,
                    0,
                    null,
                    List.of(),
                    null)));
    RunRecord r =
        TestRuns.building(
                List.of(
                    TestRuns.agent("node1", "6.1", Map.of("ocfs2:localalloc", "16"), "ext4"),
                    TestRuns.agent("node2, \"quoted\"", "6.1", Map.of(), "ext4")),
                List.of(s))
            .named("20260101-000000-t-abcd", "t")
            .workload(TestRuns.workload("type: write, size: 4MiB"))
            .plan("all")
            .ended(RunStatus.FAILED, "node2: failed")
            .repeat(2)
            .ramp(1, 2)
            .skewWarnFraction(0.07)
            .watchers(List.of(TestRuns.agent("server", "6.1", Map.of(), "ext4")))
            .build();
    return RunAnalyzer.analysed(r)
        .withExpectations(
            List.of(
                new ExpectationOutcome(
                    "efficiency",
                    ">= 0.8",
                    "efficiency >= 0.80",
                    ExpectationStatus.ERROR,
                    null,
                    0.8,
                    "ratio",
                    null,
                    "expect efficiency >= 0.80: not judged: the run failed (node2: failed)"),
                new ExpectationOutcome(
                    "node-p99",
                    "<= 5ms",
                    "node-p99 <= 5 ms",
                    ExpectationStatus.BROKEN,
                    7.5,
                    5,
                    "ms",
                    "node1",
                    "expect node-p99 <= 5 ms: measured 7.500 ms on node1")));
  }

  @Test
  void runJsonRoundTripsEveryField() throws IOException {
    RunRecord r = sample();
    Path saved = new ResultsStore(dir).save(r);
    RunRecord back = ResultsStore.load(saved);
    assertThat(back).isEqualTo(r);
    assertThat(back.analysis().findings()).isNotEmpty();
    assertThat(Files.readString(saved))
        .contains("\"coherenceErrors\" : 2", "\"clusterSettings\"", "\"windows\"")
        .contains("\"watchers\"", "\"watched\"")
        .contains("\"status\" : \"broken\"", "\"status\" : \"error\"", "\"measured\" : 7.5");
    assertThat(back.expectations()).hasSize(2);
    assertThat(saved.resolveSibling("report.html")).exists();
    assertThat(saved.resolveSibling("steps.csv")).exists();
  }

  @Test
  void runJsonWithoutNewerFieldsStillLoads() throws IOException {
    Path old = dir.resolve("run.json");
    Files.writeString(
        old,
        """
        {"schema":"lockstep.run/v1","runId":"x","name":"x","createdAt":"2025","coordinatorVersion":"0",
         "workloadType":"write","workload":{},"unit":"MB/s","opName":"write","plan":["solo"],
         "agents":[{"node":"n1","address":"a","version":"0","hostname":"h","root":"/","fsType":"ext4",
                    "mountPoint":"/","mountOptions":"rw","mountSource":"/dev/x"}],
         "steps":[],"status":"ok","errors":[],"someFutureField":1}
        """);
    RunRecord r = RunLocator.load(old);
    assertThat(r.repeat()).isEqualTo(1);
    assertThat(r.skewWarnFraction()).isEqualTo(RunRecord.DEFAULT_SKEW_WARN_FRACTION);
    assertThat(r.agents().get(0).clusterSettings()).isEmpty();
    assertThat(r.analysis()).isNotNull();
    assertThat(r.expectations()).isEmpty();
  }

  @Test
  void csvRoundTripsOneRowPerNodeStepRepeatAndPerSample() throws IOException {
    RunRecord r = sample();
    CsvExport.write(r, dir);
    List<NodeStepRow> steps = CsvExport.read(dir.resolve(CsvExport.STEPS_FILE), NodeStepRow.class);
    List<SeriesRow> series = CsvExport.read(dir.resolve(CsvExport.SERIES_FILE), SeriesRow.class);
    assertThat(steps).isEqualTo(CsvExport.stepRows(r)).hasSize(2);
    assertThat(series).isEqualTo(CsvExport.seriesRows(r)).hasSize(3);
    assertThat(steps.get(1).node()).isEqualTo("node2, \"quoted\"");
    assertThat(steps.get(1).error()).isEqualTo("No space left on device, really");
    assertThat(steps.get(1).coherenceErrors()).isEqualTo(2);
    assertThat(steps.get(0).overlapThroughput()).as("a failed step has no overlap window").isNull();
    assertThat(Files.readAllLines(dir.resolve(CsvExport.STEPS_FILE)).get(0))
        .startsWith("runId,step,group,kind,repeat,node,status");
  }

  @Test
  void locatorNamesWhatIsMissingOrBroken() throws IOException {
    RunLocator locator = new RunLocator(dir);
    assertThatThrownBy(() -> locator.find("nope"))
        .isInstanceOf(ReportInputException.class)
        .hasMessage(
            "run 'nope': no such run id under "
                + dir
                + " and no run directory or run.json at that path");
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{not json");
    assertThatThrownBy(() -> RunLocator.load(bad))
        .isInstanceOf(ReportInputException.class)
        .hasMessageStartingWith(bad + ": not a Lockstep run.json");
    Files.writeString(bad, "{\"schema\":\"other\"}");
    assertThatThrownBy(() -> RunLocator.load(bad))
        .hasMessageContaining("schema lockstep.run/v2 or lockstep.run/v1 expected");
    Path saved = new ResultsStore(dir).save(sample());
    assertThat(locator.find(sample().runId())).isEqualTo(saved);
    assertThat(locator.find(saved.getParent().toString())).isEqualTo(saved);
  }

  @Test
  void historyListsNewestFirstAndMarksUnreadableRuns() throws IOException {
    RunRecord older = sample();
    RunRecord newer =
        TestRuns.copy(older)
            .named("20260102-000000-t-ffff", older.name())
            .createdAt("2026-01-02T00:00:00Z")
            .unanalysed()
            .ended(RunStatus.OK)
            .repeat(1)
            .ramp()
            .skewWarnFraction(0.05)
            .unjudged()
            .build();
    new ResultsStore(dir).save(older);
    new ResultsStore(dir).save(RunAnalyzer.analysed(newer));
    Files.createDirectories(dir.resolve("broken"));
    Files.writeString(dir.resolve("broken/run.json"), "[]");
    List<HistoryIndex.Entry> h = HistoryIndex.scan(dir);
    assertThat(h)
        .extracting(HistoryIndex.Entry::runId)
        .containsExactly(newer.runId(), older.runId(), "broken");
    assertThat(h.get(2).status()).isEqualTo("unreadable");
    assertThat(h.get(0).nodes()).hasSize(2);
    assertThatThrownBy(() -> HistoryIndex.scan(dir.resolve("none")))
        .hasMessageContaining("does not exist");
  }
}

package lockstep.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The metrics endpoint over real HTTP on 127.0.0.1: what a Prometheus scrape reads. */
class AgentMetricsTest {
  private final List<RunView> runs = new ArrayList<>();
  private final AtomicInteger idleSamples = new AtomicInteger();
  private AgentMetrics m;

  private static ResourceSample sample(long userTicks) {
    return ResourceSample.newBuilder()
        .setCpu(CpuTicks.newBuilder().setUser(userTicks).setIdle(1000).setSystem(50))
        .setContextSwitches(777)
        .addDisks(
            DiskCounters.newBuilder()
                .setDevice("vda")
                .setReads(3)
                .setWrites(4)
                .setSectorsWritten(8)
                .setIoMillis(1500))
        .addInterfaces(NetCounters.newBuilder().setName("lo").setRxBytes(11).setTxBytes(12))
        .setDirtyBytes(4096)
        .build();
  }

  private String scrape(boolean openMetrics) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + "/metrics"));
    if (openMetrics) {
      r.header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8");
    }
    HttpResponse<String> answer =
        HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    if (openMetrics) {
      assertThat(answer.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/openmetrics-text");
    }
    return answer.body();
  }

  @BeforeEach
  void start() throws Exception {
    m =
        new AgentMetrics(
                "n1",
                () -> List.copyOf(runs),
                () -> {
                  idleSamples.incrementAndGet();
                  return sample(10);
                })
            .start("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    m.close();
  }

  @Test
  void aRunInProgressShowsItsIdStateAndCountersAndTheNodeFromItsOwnTelemetry() throws Exception {
    runs.add(
        new RunView(
            "r1.all", "write", RunState.RUN_STATE_RUNNING, 42, 42 * 4096, sample(250), true));
    String text = scrape(true);
    assertThat(text)
        .contains("lockstep_run_info{node=\"n1\",run_id=\"r1.all\",workload=\"write\"} 1")
        .contains(
            "lockstep_run_state{node=\"n1\",run_id=\"r1.all\",lockstep_run_state=\"running\"} 1")
        .contains(
            "lockstep_run_state{node=\"n1\",run_id=\"r1.all\",lockstep_run_state=\"prepared\"} 0")
        .contains(
            "lockstep_run_operations_total{node=\"n1\",run_id=\"r1.all\",workload=\"write\"}"
                + " 42.0")
        .contains(
            "lockstep_run_bytes_total{node=\"n1\",run_id=\"r1.all\",workload=\"write\"} 172032.0")
        .contains("lockstep_operations_total{node=\"n1\",workload=\"write\"} 42.0")
        .contains("lockstep_run_active{node=\"n1\"} 1.0")
        // the run's own sample (250 ticks), not a new one: a scrape never samples beside a run
        .contains("lockstep_node_cpu_seconds_total{mode=\"user\",node=\"n1\"} 2.5")
        .contains("lockstep_node_disk_busy_seconds_total{device=\"vda\",node=\"n1\"} 1.5")
        .contains(
            "lockstep_node_disk_bytes_total{device=\"vda\",direction=\"write\",node=\"n1\"}"
                + " 4096.0")
        .contains(
            "lockstep_node_network_bytes_total{direction=\"receive\",interface=\"lo\",node=\"n1\"}"
                + " 11.0")
        .contains("lockstep_node_context_switches_total{node=\"n1\"} 777.0")
        .endsWith("# EOF\n");
    assertThat(idleSamples).hasValue(0);
  }

  @Test
  void aRunWithoutTelemetryShowsNoNodeFiguresAndTakesNoSample() throws Exception {
    runs.add(new RunView("r2", "lock-files", RunState.RUN_STATE_ARMED, 0, 0, null, false));
    assertThat(scrape(false)).doesNotContain("lockstep_node_cpu_seconds_total");
    assertThat(idleSamples).hasValue(0);
  }

  @Test
  void betweenRunsAScrapeSamplesTheNodeItself() throws Exception {
    assertThat(scrape(false))
        .contains("lockstep_node_cpu_seconds_total{mode=\"user\",node=\"n1\"} 0.1")
        .contains("lockstep_run_active{node=\"n1\"} 0.0");
    assertThat(idleSamples).hasValue(1);
  }

  @Test
  void endedRunsAddTheirOperationsAndTheirHdrHistogramToTheTotalsOnce() throws Exception {
    Histogram h = LatencyHistograms.create();
    h.recordValueWithCount(3_000, 1000); // 3 us
    h.recordValueWithCount(7_000_000, 10); // 7 ms
    WorkloadResult result =
        WorkloadResult.newBuilder()
            .setState(RunState.RUN_STATE_SUCCEEDED)
            .setOps(1010)
            .setBytes(0)
            .setLatencyHistogram(LatencyHistograms.encode(h))
            .build();
    m.finished("r3", "hot-lock", result);
    m.finished("r3", "hot-lock", result); // told twice: counted once
    runs.add(new RunView("r3", "hot-lock", RunState.RUN_STATE_SUCCEEDED, 1010, 0, null, true));
    runs.add(new RunView("r4", "hot-lock", RunState.RUN_STATE_RUNNING, 5, 0, null, true));
    String text = scrape(true);
    assertThat(text)
        // r3 from its result, r4 so far
        .contains("lockstep_operations_total{node=\"n1\",workload=\"hot-lock\"} 1015.0")
        .contains(
            "lockstep_operation_latency_seconds_bucket{node=\"n1\",workload=\"hot-lock\",le=\"2.0E-6\"}"
                + " 0")
        .contains(
            "lockstep_operation_latency_seconds_bucket{node=\"n1\",workload=\"hot-lock\",le=\"5.0E-6\"}"
                + " 1000")
        .contains(
            "lockstep_operation_latency_seconds_bucket{node=\"n1\",workload=\"hot-lock\",le=\"0.005\"}"
                + " 1000")
        .contains(
            "lockstep_operation_latency_seconds_bucket{node=\"n1\",workload=\"hot-lock\",le=\"0.01\"}"
                + " 1010")
        .contains(
            "lockstep_operation_latency_seconds_bucket{node=\"n1\",workload=\"hot-lock\",le=\"+Inf\"}"
                + " 1010")
        .contains(
            "lockstep_operation_latency_seconds_count{node=\"n1\",workload=\"hot-lock\"} 1010")
        .contains(
            "lockstep_runs_finished_total{node=\"n1\",state=\"succeeded\",workload=\"hot-lock\"}"
                + " 1.0");
  }
}

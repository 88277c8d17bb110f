package lockstep.agent.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot.StateSetDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.DaemonThreads;
import lockstep.common.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * The agent's Prometheus endpoint ({@code lockstep-agent --metrics HOST:PORT}): OpenMetrics (or the
 * Prometheus text format, as the scraper asks) from the Prometheus Java client's HTTP server, one
 * thread of its own.
 *
 * <p>Everything is read at scrape time from what the agent records anyway, so the measured loops
 * pay nothing: each run's operations and bytes from the same counters its 100 ms progress samples
 * read; latency from the HdrHistogram every run's result carries, added here once the run ends (the
 * per-thread and per-worker histograms are merged only then, so latency appears per finished run,
 * not mid-run); node CPU, disk and network counters from the newest sample the run's telemetry
 * thread took. With no run armed or running, a scrape takes a node sample itself (nothing is being
 * measured then); while a run with {@code telemetry: false} goes, no node figures are shown.
 */
public final class AgentMetrics implements AutoCloseable {
  /** Linux's USER_HZ: /proc/stat counts CPU time in 1/100 s on every architecture Linux runs. */
  static final double TICKS_PER_SECOND = 100;

  private static final String[] STATES = {
    "prepared", "armed", "running", "succeeded", "failed", "aborted"
  };

  private final String node;
  private final Supplier<List<RunView>> runs;
  private final Supplier<ResourceSample> idleSample;
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter runsFinished;

  /** Totals over the runs that ended, per workload type: operations, bytes, latency. */
  private final Map<String, Totals> finished = new TreeMap<>();

  /** Run ids already added to {@link #finished} (a run ends once; this guards a repeated call). */
  private final Set<String> counted = new HashSet<>();

  private HTTPServer server;
  private ExecutorService executor;

  private static final class Totals {
    long ops;
    long bytes;
    final Histogram latency = LatencyHistograms.create();
  }

  /**
   * @param runs the runs the agent holds now
   * @param idleSample a node sample taken now (called only while no run is armed or running)
   */
  public AgentMetrics(
      String node, Supplier<List<RunView>> runs, Supplier<ResourceSample> idleSample) {
    this.node = node;
    this.runs = runs;
    this.idleSample = idleSample;
    this.runsFinished =
        Counter.builder()
            .name("lockstep_runs_finished")
            .help("Runs that reached a final state on this agent, by state")
            .labelNames("node", "workload", "state")
            .register(registry);
    registry.register((MultiCollector) this::collect);
  }

  /** Serves {@code /metrics} on {@code host:port} (port 0: a free one, see {@link #port}). */
  public AgentMetrics start(String host, int port) throws IOException {
    executor = Executors.newSingleThreadExecutor(DaemonThreads.named("metrics-http"));
    server =
        HTTPServer.builder()
            .hostname(host)
            .port(port)
            .registry(registry)
            .executorService(executor)
            .buildAndStart();
    return this;
  }

  public int port() {
    return server == null ? 0 : server.getPort();
  }

  /** The registry (tests scrape it without HTTP). */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** A run ended with {@code result}: its operations, bytes and latency join the totals. */
  public synchronized void finished(String runId, String workload, WorkloadResult result) {
    if (!counted.add(runId)) {
      return;
    }
    Totals t = finished.computeIfAbsent(workload, w -> new Totals());
    t.ops += result.getOps();
    t.bytes += result.getBytes();
    if (!result.getLatencyHistogram().isEmpty()) {
      t.latency.add(LatencyHistograms.decode(result.getLatencyHistogram()));
    }
    runsFinished.labelValues(node, workload, stateWord(result.getState())).inc();
  }

  private MetricSnapshots collect() {
    List<RunView> now = runs.get();
    List<MetricSnapshot> out = new ArrayList<>();
    synchronized (this) {
      out.addAll(runMetrics(now));
      out.addAll(totals(now));
    }
    ResourceSample sample = nodeSample(now);
    if (sample != null) {
      out.addAll(nodeMetrics(sample));
    }
    return new MetricSnapshots(out);
  }

  private List<MetricSnapshot> runMetrics(List<RunView> now) {
    InfoSnapshot.Builder info =
        InfoSnapshot.builder()
            .name("lockstep_run")
            .help(
                "A run this agent holds (prepared, in progress, or ended and kept for its result)");
    StateSetSnapshot.Builder state =
        StateSetSnapshot.builder().name("lockstep_run_state").help("The state of each run held");
    CounterSnapshot.Builder ops =
        counters(
            "lockstep_run_operations", "Operations the run has done so far (its progress counter)");
    CounterSnapshot.Builder bytes =
        counters("lockstep_run_bytes", "Bytes the run has written or read so far");
    GaugeSnapshot.Builder active =
        GaugeSnapshot.builder()
            .name("lockstep_run_active")
            .help("1 while a run is armed or running on this agent, else 0");
    boolean anyActive = false;
    for (RunView r : now) {
      Labels run = Labels.of("node", node, "run_id", r.runId(), "workload", r.workload());
      info.dataPoint(InfoDataPointSnapshot.builder().labels(run).build());
      StateSetDataPointSnapshot.Builder s =
          StateSetDataPointSnapshot.builder().labels(Labels.of("node", node, "run_id", r.runId()));
      String current = stateWord(r.state());
      for (String word : STATES) {
        s.state(word, word.equals(current));
      }
      state.dataPoint(s.build());
      ops.dataPoint(point(run, r.ops()));
      bytes.dataPoint(point(run, r.bytes()));
      anyActive |= r.active();
    }
    active.dataPoint(gaugePoint(Labels.of("node", node), anyActive ? 1 : 0));
    return List.of(info.build(), state.build(), ops.build(), bytes.build(), active.build());
  }

  /** Per workload type: the ended runs' totals plus what the runs in progress did so far. */
  private List<MetricSnapshot> totals(List<RunView> now) {
    Map<String, long[]> sums = new TreeMap<>();
    finished.forEach((w, t) -> sums.put(w, new long[] {t.ops, t.bytes}));
    for (RunView r : now) {
      if (!counted.contains(r.runId())) {
        long[] s = sums.computeIfAbsent(r.workload(), w -> new long[2]);
        s[0] += r.ops();
        s[1] += r.bytes();
      }
    }
    CounterSnapshot.Builder ops =
        counters(
            "lockstep_operations",
            "Operations done by every run of this agent since it started, by workload");
    CounterSnapshot.Builder bytes =
        counters(
            "lockstep_bytes", "Bytes written or read by every run of this agent since it started");
    sums.forEach(
        (w, s) -> {
          Labels l = Labels.of("node", node, "workload", w);
          ops.dataPoint(point(l, s[0]));
          bytes.dataPoint(point(l, s[1]));
        });
    HistogramSnapshot.Builder latency =
        HistogramSnapshot.builder()
            .name("lockstep_operation_latency_seconds")
            .unit(Unit.SECONDS)
            .help(
                "Latency of one operation, over every ended run of this agent (from each run's"
                    + " HdrHistogram, added when the run ends)");
    finished.forEach(
        (w, t) ->
            latency.dataPoint(
                HistogramDataPointSnapshot.builder()
                    .labels(Labels.of("node", node, "workload", w))
                    .classicHistogramBuckets(LatencyBuckets.of(t.latency))
                    .sum(LatencyBuckets.sumSeconds(t.latency))
                    .build()));
    return List.of(ops.build(), bytes.build(), latency.build());
  }

  /**
   * The newest sample of the active run's telemetry; with no active run, one taken now; while a run
   * without telemetry goes, none (a scrape must not sample beside the measured threads).
   */
  private ResourceSample nodeSample(List<RunView> now) {
    List<RunView> active = now.stream().filter(RunView::active).toList();
    if (active.isEmpty()) {
      try {
        return idleSample.get();
      } catch (RuntimeException e) {
        return null;
      }
    }
    return active.stream()
        .filter(RunView::telemetryOn)
        .map(RunView::latestSample)
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }

  private List<MetricSnapshot> nodeMetrics(ResourceSample s) {
    List<MetricSnapshot> out = new ArrayList<>();
    CpuTicks c = s.getCpu();
    CounterSnapshot.Builder cpu =
        counters(
            "lockstep_node_cpu_seconds",
            "CPU time of the node summed over its CPUs, by mode (/proc/stat)");
    long[] ticks = {
      c.getUser(), c.getNice(), c.getSystem(), c.getIdle(),
      c.getIowait(), c.getIrq(), c.getSoftirq(), c.getSteal()
    };
    String[] modes = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};
    for (int i = 0; i < modes.length; i++) {
      cpu.dataPoint(point(Labels.of("node", node, "mode", modes[i]), ticks[i] / TICKS_PER_SECOND));
    }
    out.add(cpu.build());
    out.add(
        counter(
            "lockstep_node_context_switches",
            "Context switches of the node (/proc/stat ctxt)",
            Labels.of("node", node),
            s.getContextSwitches()));
    CounterSnapshot.Builder ios =
        counters(
            "lockstep_node_disk_ios",
            "Reads and writes completed by the root's block device and those beneath it");
    CounterSnapshot.Builder diskBytes =
        counters(
            "lockstep_node_disk_bytes",
            "Bytes read and written by the root's block device (sectors x 512)");
    CounterSnapshot.Builder busy =
        counters(
            "lockstep_node_disk_busy_seconds",
            "Time the device had I/O in flight (/proc/diskstats io_ticks)");
    for (DiskCounters d : s.getDisksList()) {
      Labels read = Labels.of("node", node, "device", d.getDevice(), "direction", "read");
      Labels write = Labels.of("node", node, "device", d.getDevice(), "direction", "write");
      ios.dataPoint(point(read, d.getReads()));
      ios.dataPoint(point(write, d.getWrites()));
      diskBytes.dataPoint(point(read, d.getSectorsRead() * 512.0));
      diskBytes.dataPoint(point(write, d.getSectorsWritten() * 512.0));
      busy.dataPoint(
          point(Labels.of("node", node, "device", d.getDevice()), d.getIoMillis() / 1000.0));
    }
    out.add(ios.build());
    out.add(diskBytes.build());
    out.add(busy.build());
    CounterSnapshot.Builder net =
        counters(
            "lockstep_node_network_bytes",
            "Bytes received and sent per network interface (/proc/net/dev)");
    for (NetCounters n : s.getInterfacesList()) {
      net.dataPoint(
          point(
              Labels.of("node", node, "interface", n.getName(), "direction", "receive"),
              n.getRxBytes()));
      net.dataPoint(
          point(
              Labels.of("node", node, "interface", n.getName(), "direction", "transmit"),
              n.getTxBytes()));
    }
    out.add(net.build());
    GaugeSnapshot.Builder memory =
        GaugeSnapshot.builder()
            .name("lockstep_node_page_cache_bytes")
            .unit(Unit.BYTES)
            .help("Dirty and Writeback of /proc/meminfo");
    memory.dataPoint(gaugePoint(Labels.of("node", node, "kind", "dirty"), s.getDirtyBytes()));
    memory.dataPoint(
        gaugePoint(Labels.of("node", node, "kind", "writeback"), s.getWritebackBytes()));
    out.add(memory.build());
    return out;
  }

  private static CounterSnapshot counter(String name, String help, Labels labels, double value) {
    return counters(name, help).dataPoint(point(labels, value)).build();
  }

  /**
   * A counter family, in bytes or seconds when its name ends so (a Prometheus name carries its
   * unit).
   */
  private static CounterSnapshot.Builder counters(String name, String help) {
    CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
    if (name.endsWith("_bytes")) {
      b.unit(Unit.BYTES);
    } else if (name.endsWith("_seconds")) {
      b.unit(Unit.SECONDS);
    }
    return b;
  }

  private static CounterDataPointSnapshot point(Labels labels, double value) {
    return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  private static GaugeDataPointSnapshot gaugePoint(Labels labels, double value) {
    return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  static String stateWord(RunState s) {
    return switch (s) {
      case RUN_STATE_PREPARED -> "prepared";
      case RUN_STATE_ARMED -> "armed";
      case RUN_STATE_RUNNING -> "running";
      case RUN_STATE_SUCCEEDED -> "succeeded";
      case RUN_STATE_FAILED -> "failed";
      case RUN_STATE_ABORTED -> "aborted";
      default -> s.name().toLowerCase(Locale.ROOT);
    };
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
    if (executor != null) {
      executor.shutdownNow();
    }
  }
}

package lockstep.coordinator.report.csv;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.ResourcePoint;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;

/**
 * steps.csv (one row per node, step and repeat), series.csv (one row per time-series sample) and
 * resources.csv (one row per resource sample interval, plus the run and baseline figures).
 */
public final class CsvExport {
  public static final String STEPS_FILE = "steps.csv";
  public static final String SERIES_FILE = "series.csv";
  public static final String RESOURCES_FILE = "resources.csv";
  private static final CsvMapper CSV = new CsvMapper();

  private CsvExport() {}

  public static List<NodeStepRow> stepRows(RunRecord run) {
    List<NodeStepRow> rows = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      OverlapWindow w = run.window(s.id());
      for (NodeResult n : s.results()) {
        Double overlap = w == null || !w.exists() ? null : w.windowByNode().get(n.node());
        rows.add(
            new NodeStepRow(
                run.runId(),
                s.id(),
                s.group(),
                s.kind(),
                s.repeat(),
                n.node(),
                n.status().toString(),
                n.ops(),
                n.bytes(),
                n.seconds(),
                n.throughput(),
                run.unit(),
                overlap,
                n.startSkewMillis(),
                n.clockOffsetMillis(),
                n.clockUncertaintyMillis(),
                n.firstOpUnixNanos(),
                n.endUnixNanos(),
                n.latency().count(),
                n.latency().p50Micros(),
                n.latency().p90Micros(),
                n.latency().p99Micros(),
                n.latency().p999Micros(),
                n.latency().maxMicros(),
                n.coherenceErrors(),
                n.error() == null ? "" : n.error().message()));
      }
    }
    return rows;
  }

  public static List<SeriesRow> seriesRows(RunRecord run) {
    List<SeriesRow> rows = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.results()) {
        for (Sample p : n.series() == null ? List.<Sample>of() : n.series()) {
          rows.add(
              new SeriesRow(
                  run.runId(),
                  s.id(),
                  s.group(),
                  s.repeat(),
                  n.node(),
                  p.t(),
                  p.ops(),
                  p.bytes(),
                  p.rate(),
                  run.unit()));
        }
      }
    }
    return rows;
  }

  public static List<ResourceRow> resourceRows(RunRecord run) {
    List<ResourceRow> rows = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.resourceNodes()) {
        NodeResources r = n.resources();
        if (r == null) {
          continue;
        }
        if (r.baseline() != null) {
          rows.add(figuresRow(run, s, n, "baseline", 0, r.baseline()));
        }
        double end = r.series().isEmpty() ? 0 : r.series().get(r.series().size() - 1).t();
        rows.add(figuresRow(run, s, n, "run", end, r.run()));
        String device = r.run().busiestDevice() == null ? "" : r.run().busiestDevice().device();
        for (ResourcePoint p : r.series()) {
          rows.add(
              new ResourceRow(
                  run.runId(),
                  s.id(),
                  s.group(),
                  s.repeat(),
                  n.node(),
                  "interval",
                  p.t(),
                  p.cpuBusyPercent(),
                  p.iowaitPercent(),
                  p.workloadCpuPercent(),
                  device,
                  p.deviceBusyPercent(),
                  p.deviceMBps(),
                  p.netMBps(),
                  p.dirtyBytes()));
        }
      }
    }
    return rows;
  }

  private static ResourceRow figuresRow(
      RunRecord run, StepRecord s, NodeResult n, String span, double t, ResourceFigures f) {
    DeviceFigures d = f.busiestDevice();
    double net = f.interfaces().stream().mapToDouble(InterfaceFigures::mbPerSecond).sum();
    return new ResourceRow(
        run.runId(),
        s.id(),
        s.group(),
        s.repeat(),
        n.node(),
        span,
        t,
        f.cpuBusyPercent(),
        f.iowaitPercent(),
        f.workloadCpuPercent(),
        d == null ? "" : d.device(),
        d == null ? 0 : d.busyPercent(),
        d == null ? 0 : d.readMBps() + d.writeMBps(),
        net,
        f.dirtyBytes());
  }

  /** Writes the three files into {@code dir}; returns their paths. */
  public static List<Path> write(RunRecord run, Path dir) throws IOException {
    Path steps = dir.resolve(STEPS_FILE);
    Path series = dir.resolve(SERIES_FILE);
    Path resources = dir.resolve(RESOURCES_FILE);
    write(steps, NodeStepRow.class, stepRows(run));
    write(series, SeriesRow.class, seriesRows(run));
    write(resources, ResourceRow.class, resourceRows(run));
    return List.of(steps, series, resources);
  }

  public static <T> void write(Path file, Class<T> type, List<T> rows) throws IOException {
    CsvSchema schema = CSV.schemaFor(type).withHeader();
    try (Writer w = Files.newBufferedWriter(file)) {
      CSV.writer(schema).writeValues(w).writeAll(rows);
    }
  }

  public static <T> void write(Writer out, Class<T> type, List<T> rows) throws IOException {
    CsvSchema schema = CSV.schemaFor(type).withHeader();
    CSV.writer(schema).writeValues(out).writeAll(rows).flush();
  }

  public static <T> List<T> read(Path file, Class<T> type) throws IOException {
    CsvSchema schema = CSV.schemaFor(type).withHeader();
    try (MappingIterator<T> it = CSV.readerFor(type).with(schema).readValues(file.toFile())) {
      return it.readAll();
    }
  }
}

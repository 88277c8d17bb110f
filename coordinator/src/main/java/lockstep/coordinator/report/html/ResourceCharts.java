package lockstep.coordinator.report.html;

import static lockstep.coordinator.report.html.EChartsOptions.map;
import static lockstep.coordinator.report.html.EChartsOptions.point;
import static lockstep.coordinator.report.html.HtmlPage.esc;
import static lockstep.coordinator.report.html.HtmlPage.labelTd;
import static lockstep.coordinator.report.html.HtmlPage.td;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import lockstep.coordinator.analysis.Bottlenecks;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.ResourcePoint;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/**
 * "Where the time went": per step (first repeat), each node's throughput, device busy %, CPU busy %
 * and network MB/s on one time axis (start instant and overlap window marked as in the throughput
 * charts), and a table of the run's figures beside the idle baseline.
 */
public final class ResourceCharts {
  static final int MAX_STEPS = 8;
  private static final String[] PANELS = {"", "device busy %", "CPU busy %", "network MB/s"};

  private ResourceCharts() {}

  /** The first repeat of every step that carried resource samples. */
  static List<StepRecord> steps(RunRecord run) {
    return run.steps().stream()
        .filter(s -> s.repeat() == 1)
        .filter(s -> s.resourceNodes().stream().anyMatch(n -> n.resources() != null))
        .limit(MAX_STEPS)
        .toList();
  }

  public static List<Chart> of(RunRecord run) {
    List<Chart> out = new ArrayList<>();
    for (StepRecord s : steps(run)) {
      out.add(chart(run, s, run.window(s.id())));
    }
    return out;
  }

  static String chartId(StepRecord s) {
    return "resources-" + s.id();
  }

  static Chart chart(RunRecord run, StepRecord s, OverlapWindow w) {
    List<Object> grids = new ArrayList<>();
    List<Object> xs = new ArrayList<>();
    List<Object> ys = new ArrayList<>();
    double top = 7;
    double height = 18;
    double gap = 5;
    for (int i = 0; i < PANELS.length; i++) {
      grids.add(
          map(
              "left",
              70,
              "right",
              30,
              "top",
              (top + i * (height + gap)) + "%",
              "height",
              height + "%"));
      xs.add(
          map(
              "type",
              "value",
              "gridIndex",
              i,
              "min",
              Math.min(0, minT(s)),
              "name",
              i == PANELS.length - 1 ? "seconds since the start instant" : null,
              "nameLocation",
              "middle",
              "nameGap",
              25,
              "axisLabel",
              map("show", i == PANELS.length - 1)));
      ys.add(
          map(
              "type",
              "value",
              "gridIndex",
              i,
              "name",
              i == 0 ? run.unit() : PANELS[i],
              "nameLocation",
              "end",
              "nameTextStyle",
              map("align", "left"),
              "max",
              i == 1 || i == 2 ? 100 : null,
              "splitNumber",
              2));
    }
    List<Object> series = new ArrayList<>();
    List<String> legend = new ArrayList<>();
    for (NodeResult n : s.resourceNodes()) {
      String name = label(s, n);
      legend.add(name);
      if (!s.watches(n.node())) {
        series.add(line(name, 0, EChartsOptions.ratePoints(n), s, w));
      }
      List<ResourcePoint> pts = n.resources() == null ? List.of() : n.resources().series();
      series.add(line(name, 1, points(pts, ResourcePoint::deviceBusyPercent), s, w));
      series.add(line(name, 2, points(pts, ResourcePoint::cpuBusyPercent), s, w));
      series.add(line(name, 3, points(pts, ResourcePoint::netMBps), s, w));
    }
    Map<String, Object> o = EChartsOptions.base(legend);
    o.put("grid", grids);
    o.put("xAxis", xs);
    o.put("yAxis", ys);
    o.put("axisPointer", map("link", List.of(map("xAxisIndex", "all"))));
    o.put("series", series);
    return new Chart(
        chartId(s),
        "Where the time went: step " + s.id(),
        "Each node's "
            + run.unit()
            + ", its block device's busy share (I/O in flight), its CPUs' busy share and the"
            + " network MB/s of all its interfaces, per sample interval on the coordinator's clock;"
            + " 0 s is the start instant"
            + (w != null && w.exists()
                ? ", the shaded band the window in which every node was running."
                : "."),
        o);
  }

  /** A node as the charts and tables name it: a watch-only node says so. */
  static String label(StepRecord s, NodeResult n) {
    return s.watches(n.node()) ? n.node() + " (watch-only)" : n.node();
  }

  private static double minT(StepRecord s) {
    return s.resourceNodes().stream()
        .filter(n -> n.resources() != null)
        .flatMap(n -> n.resources().series().stream())
        .mapToDouble(ResourcePoint::t)
        .min()
        .orElse(0);
  }

  private static List<Object> points(List<ResourcePoint> pts, ToDoubleFunction<ResourcePoint> y) {
    List<Object> out = new ArrayList<>(pts.size());
    pts.forEach(p -> out.add(point(p.t(), y.applyAsDouble(p))));
    return out;
  }

  private static Map<String, Object> line(
      String node, int panel, List<Object> data, StepRecord step, OverlapWindow w) {
    Map<String, Object> s =
        map(
            "name",
            node,
            "type",
            "line",
            "step",
            "end",
            "showSymbol",
            false,
            "xAxisIndex",
            panel,
            "yAxisIndex",
            panel,
            "data",
            data);
    s.put("markLine", EChartsOptions.startInstantLine(panel == 0));
    Map<String, Object> bands = EChartsOptions.bands(step, w, null);
    if (bands != null) {
      s.put("markArea", bands);
    }
    return s;
  }

  /** The step's bottleneck lines of the verdict. */
  static String bottleneck(RunRecord run, StepRecord s) {
    StringBuilder b = new StringBuilder();
    if (run.analysis() != null) {
      for (Finding f : run.analysis().findings()) {
        if (f.kind() == FindingKind.BOTTLENECK && s.group().equals(f.step())) {
          b.append("<p class=\"bottleneck\" data-code=\"")
              .append(esc(f.code()))
              .append("\"><b>")
              .append(esc(f.message()))
              .append("</b></p>");
        }
      }
    }
    return b.toString();
  }

  static String table(StepRecord s) {
    StringBuilder b =
        new StringBuilder(
            "<table class=\"resources\"><tr><th class=\"l\">node</th><th"
                + " class=\"l\">span</th><th>CPU busy</th><th>own CPU</th><th>iowait</th><th"
                + " class=\"l\">device: busy, MB/s, queue</th><th class=\"l\">network</th><th>ctx"
                + " sw/s</th><th>dirty</th><th>in lock calls</th></tr>");
    for (NodeResult n : s.resourceNodes()) {
      if (n.resources() == null) {
        continue;
      }
      row(b, label(s, n), "idle baseline", n.resources().baseline(), null);
      row(b, label(s, n), "run", n.resources().run(), n.resources().lockWaitShare());
    }
    return b.append(
            "</table><p class=\"muted\">The idle baseline spans the moment the run was armed to the"
                + " start instant. CPU figures are shares of all CPUs; own CPU is the agent's and"
                + " its worker processes'. Device: the busiest block device under the root (busy ="
                + " I/O in flight). Network: the interface that moved the most bytes, busier"
                + " direction, and its share of the link where the speed is known. Dirty:"
                + " /proc/meminfo at the end. In lock calls: the workers' summed lock-op latency"
                + " over workers × run time (lock workloads).</p>")
        .toString();
  }

  private static void row(
      StringBuilder b, String node, String span, ResourceFigures f, Double lockShare) {
    if (f == null) {
      b.append("<tr class=\"muted\">")
          .append(labelTd(node))
          .append(labelTd(span))
          .append("<td colspan=\"8\" class=\"l\">too short to measure</td></tr>");
      return;
    }
    b.append("<tr")
        .append(span.equals("run") ? "" : " class=\"muted\"")
        .append(">")
        .append(labelTd(node))
        .append(labelTd(span))
        .append(td(pct(f.cpuBusyPercent())))
        .append(td(pct(f.workloadCpuPercent())))
        .append(td(pct(f.iowaitPercent())))
        .append(labelTd(device(f.busiestDevice())))
        .append(labelTd(network(f.busiestInterface())))
        .append(td(String.format(Locale.ROOT, "%,.0f", f.contextSwitchesPerSecond())))
        .append(td(Bottlenecks.bytes(f.dirtyBytes())))
        .append(td(lockShare == null ? "–" : pct(lockShare * 100)))
        .append("</tr>");
  }

  /** The busiest device: name, busy share, MB/s read and written, queue depth. */
  private static String device(DeviceFigures d) {
    if (d == null) {
      return "none";
    }
    return d.device()
        + ": "
        + pct(d.busyPercent())
        + ", "
        + num(d.readMBps() + d.writeMBps())
        + ", "
        + num(d.queueDepth());
  }

  /** The busiest interface: name, MB/s, and its share of the link where the speed is known. */
  private static String network(InterfaceFigures i) {
    if (i == null) {
      return "–";
    }
    String link = i.linkPercent() == null ? "" : ", " + pct(i.linkPercent()) + " of link";
    return i.name() + ": " + num(i.mbPerSecond()) + " MB/s" + link;
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f%%", v);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.2f", v);
  }

  static boolean any(RunRecord run) {
    return run.steps().stream()
        .flatMap(s -> s.resourceNodes().stream())
        .map(NodeResult::resources)
        .anyMatch(Objects::nonNull);
  }
}

package lockstep.coordinator.report.html;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;

/** Small builders for ECharts option maps (serialised to JSON as they are). */
final class EChartsOptions {
  private EChartsOptions() {}

  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i + 1] != null) {
        m.put((String) kv[i], kv[i + 1]);
      }
    }
    return m;
  }

  static Map<String, Object> base(List<String> legend) {
    return map(
        "animation", false,
        "grid", map("left", 70, "right", 30, "top", 50, "bottom", 60, "containLabel", true),
        "tooltip", map("trigger", "axis"),
        "legend", map("data", legend, "top", 0, "left", 0),
        "toolbox", map("right", 0, "top", 0, "feature", map("saveAsImage", map("title", "PNG"))));
  }

  /** A chart of {@code series} on two axes: {@link #base} with the axes and the series. */
  static Map<String, Object> xy(
      List<String> legend, Object xAxis, Object yAxis, List<Object> series) {
    Map<String, Object> o = base(legend);
    o.put("xAxis", xAxis);
    o.put("yAxis", yAxis);
    o.put("series", series);
    return o;
  }

  /** A value axis along x, named below its middle; {@code more}: further options, as in map. */
  static Map<String, Object> xValueAxis(String name, Object... more) {
    Map<String, Object> axis =
        map("type", "value", "name", name, "nameLocation", "middle", "nameGap", 30);
    axis.putAll(map(more));
    return axis;
  }

  static Map<String, Object> valueAxis(String name, boolean log) {
    return map(
        "type",
        log ? "log" : "value",
        "name",
        name,
        "nameLocation",
        "middle",
        "nameGap",
        50,
        "scale",
        false,
        "splitLine",
        map("show", true));
  }

  static Map<String, Object> categoryAxis(List<String> categories) {
    return map("type", "category", "data", categories);
  }

  /** A node's throughput per sample interval as [t, rate] points (the first sample has none). */
  static List<Object> ratePoints(NodeResult n) {
    List<Object> out = new ArrayList<>();
    List<Sample> samples = n.series() == null ? List.of() : n.series();
    for (int i = 1; i < samples.size(); i++) {
      out.add(point(samples.get(i).t(), samples.get(i).rate()));
    }
    return out;
  }

  /**
   * The red line at 0 s, the start instant, labelled unless {@code showLabel} is false (null: the
   * chart's default, shown).
   */
  static Map<String, Object> startInstantLine(Boolean showLabel) {
    return map(
        "symbol",
        "none",
        "silent",
        true,
        "lineStyle",
        map("color", "#c0392b", "width", 2),
        "label",
        map("show", showLabel, "formatter", "start instant", "position", "insideEndTop"),
        "data",
        List.of(map("xAxis", 0)));
  }

  /** The shaded band of the overlap window; with a {@code name}, labelled with it. */
  /**
   * The shaded bands of a step's time series: the overlap window (blue) and each fault's period
   * (red, from the lab carrying it out until it ended, or to the end of the step for a kill), as
   * Jepsen shades its nemesis; null when there is neither.
   */
  static Map<String, Object> bands(StepRecord s, OverlapWindow w, String windowName) {
    List<Object> data = new ArrayList<>();
    if (w != null && w.exists()) {
      data.add(
          List.of(
              map(
                  "name",
                  windowName,
                  "xAxis",
                  round(w.startSeconds()),
                  "itemStyle",
                  map("color", "rgba(46, 134, 193, 0.12)")),
              map("xAxis", round(w.endSeconds()))));
    }
    double stepEnd = sampleTimes(s.results()).max().orElse(0);
    for (FaultRecord f : s.faults()) {
      if (!f.happened()) {
        continue;
      }
      double from = f.beginSeconds(s.intendedStartUnixNanos());
      double to =
          f.endedUnixNanos() > 0
              ? (f.endedUnixNanos() - s.intendedStartUnixNanos()) / 1e9
              : Math.max(from, stepEnd);
      data.add(
          List.of(
              map(
                  "name",
                  f.fault().action() + " " + f.fault().node(),
                  "xAxis",
                  round(from),
                  "itemStyle",
                  map("color", "rgba(203, 67, 53, 0.16)"),
                  "label",
                  map("show", true, "position", "insideTopLeft", "color", "#922b21")),
              map("xAxis", round(to))));
    }
    if (data.isEmpty()) {
      return null;
    }
    return map(
        "silent",
        true,
        "label",
        windowName == null ? null : map("show", true, "position", "insideTop", "color", "#1f618d"),
        "data",
        data);
  }

  static List<Object> point(double x, double y) {
    List<Object> p = new ArrayList<>();
    p.add(round(x));
    p.add(round(y));
    return p;
  }

  static double round(double v) {
    return Math.abs(v) >= 100 ? Math.round(v * 10) / 10.0 : Math.round(v * 10_000) / 10_000.0;
  }

  static Double roundOrNull(Double v) {
    return v == null ? null : round(v);
  }

  /** The time of every sample of {@code nodes}, in seconds since the start instant. */
  static DoubleStream sampleTimes(Collection<NodeResult> nodes) {
    return nodes.stream()
        .flatMap(n -> n.series() == null ? Stream.<Sample>empty() : n.series().stream())
        .mapToDouble(Sample::t);
  }
}

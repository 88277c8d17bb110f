package lockstep.coordinator.report.html;

import static lockstep.coordinator.report.html.EChartsOptions.map;
import static lockstep.coordinator.report.html.EChartsOptions.point;
import static lockstep.coordinator.report.html.EChartsOptions.roundOrNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.ScalingPoint;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/** The charts of a run's report, as ECharts options built from run.json's figures. */
public final class RunCharts {
  static final int MAX_SERIES_CHARTS = 6;

  private RunCharts() {}

  public static List<Chart> of(RunRecord run) {
    List<Chart> out = new ArrayList<>();
    Analysis a = run.analysis();
    if (a == null) {
      return out;
    }
    Chart bars = soloVsTogether(run, a);
    if (bars != null) {
      out.add(bars);
    }
    Chart curve = scalingCurve(run, a);
    if (curve != null) {
      out.add(curve);
    }
    out.addAll(timeSeries(run, a));
    out.addAll(ResourceCharts.of(run));
    Chart lat = latency(run);
    if (lat != null) {
      out.add(lat);
    }
    return out;
  }

  static Chart soloVsTogether(RunRecord run, Analysis a) {
    List<String> nodes = run.agents().stream().map(AgentRecord::node).toList();
    List<Object> series = new ArrayList<>();
    List<String> legend = new ArrayList<>();
    if (a.nodes().stream().anyMatch(n -> n.solo() != null)) {
      legend.add("alone (solo)");
      series.add(
          bar("alone (solo)", perNode(nodes, a.nodes(), NodeScaling::node, NodeScaling::solo)));
    }
    for (StepSummary s : a.steps()) {
      if (s.nodes().size() < 2 || s.perNode().isEmpty()) {
        continue;
      }
      String name = s.group() + " (" + s.nodes().size() + " nodes at once)";
      legend.add(name);
      series.add(
          bar(
              name,
              perNode(
                  nodes,
                  s.perNode(),
                  NodeStepStats::node,
                  x -> x.throughput() == null ? null : x.throughput().mean())));
    }
    if (series.isEmpty()) {
      return null;
    }
    return new Chart(
        "solo-vs-together",
        "Each node: alone vs together",
        "Mean "
            + run.unit()
            + " of each node over the repeats, alone and in every multi-node step.",
        EChartsOptions.xy(
            legend,
            EChartsOptions.categoryAxis(nodes),
            EChartsOptions.valueAxis(run.unit() + " per node", false),
            series));
  }

  /** For each of {@code nodes}, the rounded {@code value} of the entry that names it, or null. */
  private static <T> List<Double> perNode(
      List<String> nodes, List<T> entries, Function<T, String> node, Function<T, Double> value) {
    return nodes.stream()
        .map(
            n ->
                entries.stream()
                    .filter(x -> node.apply(x).equals(n))
                    .findFirst()
                    .map(value)
                    .map(EChartsOptions::roundOrNull)
                    .orElse(null))
        .toList();
  }

  private static Map<String, Object> bar(String name, List<Double> values) {
    return map(
        "name",
        name,
        "type",
        "bar",
        "data",
        values,
        "label",
        map("show", true, "position", "top"),
        "barMaxWidth",
        60);
  }

  static Chart scalingCurve(RunRecord run, Analysis a) {
    List<ScalingPoint> pts = a.scaling();
    if (pts.isEmpty() || pts.stream().noneMatch(p -> p.nodes() > 1)) {
      return null;
    }
    List<String> legend = new ArrayList<>(List.of("measured aggregate"));
    List<Object> series = new ArrayList<>();
    series.add(
        map(
            "name",
            "measured aggregate",
            "type",
            "line",
            "symbolSize",
            10,
            "data",
            pts.stream().map(p -> point(p.nodes(), p.aggregate())).toList(),
            "label",
            map("show", true, "position", "top")));
    addCurve(
        legend,
        series,
        "while all ran (overlap window)",
        pts,
        ScalingPoint::overlapAggregate,
        map("symbol", "diamond", "symbolSize", 9));
    addCurve(
        legend,
        series,
        "ideal (sum of solos)",
        pts,
        ScalingPoint::ideal,
        map("lineStyle", map("type", "dashed"), "symbol", "none"));
    Map<String, Object> o =
        EChartsOptions.xy(
            legend,
            EChartsOptions.xValueAxis(
                "nodes running at once",
                "minInterval",
                1,
                "min",
                0,
                "max",
                pts.stream().mapToInt(ScalingPoint::nodes).max().orElse(1) + 1),
            EChartsOptions.valueAxis("aggregate " + run.unit(), false),
            series);
    return new Chart(
        "scaling-curve",
        "Scaling curve",
        "Aggregate "
            + run.unit()
            + " (sum over nodes, mean over repeats) against the number of nodes running at once; "
            + "the dashed line is what perfect scaling would give.",
        o);
  }

  /**
   * A line of the scaling curve through the points that have {@code figure} (none when no point has
   * it), drawn in {@code style}.
   */
  private static void addCurve(
      List<String> legend,
      List<Object> series,
      String name,
      List<ScalingPoint> pts,
      Function<ScalingPoint, Double> figure,
      Map<String, Object> style) {
    List<Object> data =
        pts.stream()
            .filter(p -> figure.apply(p) != null)
            .map(p -> (Object) point(p.nodes(), figure.apply(p)))
            .toList();
    if (data.isEmpty()) {
      return;
    }
    legend.add(name);
    Map<String, Object> line = map("name", name, "type", "line");
    line.putAll(style);
    line.put("data", data);
    series.add(line);
  }

  static List<Chart> timeSeries(RunRecord run, Analysis a) {
    List<Chart> out = new ArrayList<>();
    List<StepRecord> multi =
        run.steps().stream()
            .filter(s -> s.results().size() > 1 || s.faulted())
            .limit(MAX_SERIES_CHARTS)
            .toList();
    for (StepRecord s : multi) {
      OverlapWindow w = run.window(s.id());
      out.add(
          seriesChart(
              run,
              s,
              "series-" + s.id(),
              "Over time: step " + s.id(),
              s.results().stream()
                  .collect(LinkedHashMap::new, (m, n) -> m.put(n.node(), n), Map::putAll),
              w,
              "Each node's "
                  + run.unit()
                  + " per sample interval, on the coordinator's clock; 0 s is the start instant"
                  + (w != null && w.exists()
                      ? "; the shaded band is the window in which every node was running"
                      : "")
                  + (s.faulted()
                      ? "; red: the scenario's fault, from the lab carrying it out until it ended"
                          + " (a kill: to the end of the step)."
                      : ".")));
    }
    if (multi.isEmpty()) {
      Map<String, NodeResult> solos = new LinkedHashMap<>();
      run.steps().stream()
          .filter(s -> s.results().size() == 1)
          .forEach(s -> solos.put(s.id(), s.results().get(0)));
      if (!solos.isEmpty()) {
        out.add(
            seriesChart(
                run,
                null,
                "series-solo",
                "Over time: solo steps",
                solos,
                null,
                "Each solo step's "
                    + run.unit()
                    + " per sample interval; 0 s is each step's start instant."));
      }
    }
    return out;
  }

  private static Chart seriesChart(
      RunRecord run,
      StepRecord step,
      String id,
      String title,
      Map<String, NodeResult> byName,
      OverlapWindow w,
      String caption) {
    List<Object> series = new ArrayList<>();
    List<String> legend = new ArrayList<>(byName.keySet());
    boolean first = true;
    for (var e : byName.entrySet()) {
      List<Object> data = EChartsOptions.ratePoints(e.getValue());
      Map<String, Object> s =
          map(
              "name",
              e.getKey(),
              "type",
              "line",
              "step",
              "end",
              "showSymbol",
              true,
              "symbolSize",
              5,
              "data",
              data);
      if (first) {
        s.put("markLine", EChartsOptions.startInstantLine(null));
        Map<String, Object> bands =
            step == null ? null : EChartsOptions.bands(step, w, "all nodes running");
        if (bands != null) {
          s.put("markArea", bands);
        }
        first = false;
      }
      series.add(s);
    }
    double minT = EChartsOptions.sampleTimes(byName.values()).min().orElse(0);
    Map<String, Object> o =
        EChartsOptions.xy(
            legend,
            EChartsOptions.xValueAxis(
                "seconds since the start instant", "min", Math.min(0, Math.floor(minT * 10) / 10)),
            EChartsOptions.valueAxis(run.unit(), false),
            series);
    o.put("dataZoom", List.of(map("type", "inside")));
    return new Chart(id, title, caption, o);
  }

  static Chart latency(RunRecord run) {
    List<String> cats = new ArrayList<>();
    List<List<Double>> cols =
        List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (StepRecord s : run.steps()) {
      if (s.repeat() != 1) {
        continue;
      }
      for (NodeResult n : s.results()) {
        if (n.latency() == null || n.latency().count() == 0) {
          continue;
        }
        cats.add(n.node() + " · " + s.group());
        cols.get(0).add(roundOrNull(positive(n.latency().p50Micros())));
        cols.get(1).add(roundOrNull(positive(n.latency().p90Micros())));
        cols.get(2).add(roundOrNull(positive(n.latency().p99Micros())));
        cols.get(3).add(roundOrNull(positive(n.latency().p999Micros())));
      }
    }
    if (cats.isEmpty()) {
      return null;
    }
    List<String> names = List.of("p50", "p90", "p99", "p99.9");
    List<Object> series = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      series.add(map("name", names.get(i), "type", "bar", "data", cols.get(i)));
    }
    return new Chart(
        "latency",
        "Operation latency percentiles",
        "Per node and step (first repeat), from each node's HdrHistogram; log scale.",
        EChartsOptions.xy(
            names,
            map(
                "type",
                "category",
                "data",
                cats,
                "axisLabel",
                map("rotate", cats.size() > 6 ? 30 : 0, "interval", 0)),
            EChartsOptions.valueAxis("latency µs (log scale)", true),
            series));
  }

  private static Double positive(double v) {
    return v > 0 ? v : null;
  }
}

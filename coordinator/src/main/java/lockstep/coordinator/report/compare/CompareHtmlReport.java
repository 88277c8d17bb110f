package lockstep.coordinator.report.compare;

import static lockstep.coordinator.report.html.HtmlPage.esc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.html.Chart;
import lockstep.coordinator.report.html.HtmlPage;

/** The HTML side-by-side of two runs: per-node bars A vs B, the ratio table and the warnings. */
public final class CompareHtmlReport {
  private CompareHtmlReport() {}

  public static String render(RunComparison c) {
    List<Chart> charts = new ArrayList<>();
    charts.add(bars(c));
    HtmlPage page = new HtmlPage("Lockstep compare: " + c.a().runId() + " vs " + c.b().runId());
    page.raw("<h1>Compare: " + esc(label(c.a())) + " vs " + esc(label(c.b())) + "</h1>");
    page.raw(
        "<p class=\"sub\">A = <code>"
            + esc(c.a().runId())
            + "</code> ("
            + esc(c.a().createdAt())
            + "), B = <code>"
            + esc(c.b().runId())
            + "</code> ("
            + esc(c.b().createdAt())
            + "); "
            + esc(c.a().workloadType())
            + " "
            + esc(c.a().workloadSettings())
            + "</p>");
    StringBuilder v =
        new StringBuilder(
            "<section class=\"verdict "
                + (c.warnings().isEmpty() ? "good" : "warning")
                + "\"><ul>");
    RunComparison.Row agg = c.aggregate();
    if (agg.ratio() != null) {
      v.append("<li>B reached <b>")
          .append(String.format(Locale.ROOT, "%.2fx", agg.ratio()))
          .append("</b> A's aggregate (")
          .append(esc(Verdicts.num(agg.b())))
          .append(" vs ")
          .append(esc(Verdicts.num(agg.a())))
          .append(' ')
          .append(esc(c.unit()))
          .append(")")
          .append(
              c.settingChanges().isEmpty()
                  ? ""
                  : ", with <b>" + esc(String.join("; ", c.settingChanges())) + "</b>")
          .append(".</li>");
    }
    c.settingDifferences()
        .forEach(d -> v.append("<li>Changed from A to B: ").append(esc(d)).append("</li>"));
    c.warnings()
        .forEach(w -> v.append("<li class=\"warning\">Warning: ").append(esc(w)).append("</li>"));
    page.raw(v.append("</ul></section>").toString());
    page.chart(charts.get(0));
    StringBuilder t =
        new StringBuilder(
            "<h2>Side by side</h2><table><tr><th class=\"l\">node</th><th"
                + " class=\"l\">step</th><th>A "
                + esc(c.unit())
                + "</th><th>B "
                + esc(c.unit())
                + "</th><th>B / A</th></tr>");
    for (RunComparison.NodeRow n : c.nodes()) {
      t.append(row(n.node(), "solo", n.solo(), false))
          .append(row(n.node(), "together", n.together(), false));
    }
    t.append(row(c.aggregate().label(), "", c.aggregate(), false))
        .append(row(c.overlapAggregate().label(), "", c.overlapAggregate(), false))
        .append(row(c.sumOfSolos().label(), "", c.sumOfSolos(), false))
        .append(row(c.aggregateEfficiency().label(), "", c.aggregateEfficiency(), true))
        .append(row(c.meanNodeEfficiency().label(), "", c.meanNodeEfficiency(), true));
    page.raw(t.append("</table>").toString());
    page.raw(SignificanceTable.of(c.a(), c.b()).html(c.unit()));
    page.raw(ResourceComparison.of(c.a(), c.b()).html());
    page.raw(
        "<h2>Verdicts</h2><p><b>A:</b></p><ul>"
            + items(c.a())
            + "</ul><p><b>B:</b></p><ul>"
            + items(c.b())
            + "</ul>");
    page.raw(
        "<footer>Written by Lockstep from the two runs' run.json. Charts drawn by Apache ECharts "
            + HtmlPage.ECHARTS_VERSION
            + " (Apache License 2.0), inlined: this file needs no network.</footer>");
    return page.render(charts);
  }

  private static String label(RunRecord r) {
    return r.name() + " " + r.createdAt();
  }

  private static String items(RunRecord r) {
    if (r.analysis() == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    r.analysis().verdict().forEach(x -> b.append("<li>").append(esc(x)).append("</li>"));
    return b.toString();
  }

  private static String row(String label, String step, RunComparison.Row r, boolean ratioValues) {
    if (r.a() == null && r.b() == null) {
      return "";
    }
    return "<tr><td class=\"l\">"
        + esc(label)
        + "</td><td class=\"l\">"
        + esc(step)
        + "</td><td>"
        + esc(v(r.a(), ratioValues))
        + "</td><td>"
        + esc(v(r.b(), ratioValues))
        + "</td><td><b>"
        + esc(r.ratio() == null ? "–" : String.format(Locale.ROOT, "%.2fx", r.ratio()))
        + "</b></td></tr>";
  }

  private static String v(Double d, boolean ratio) {
    return d == null ? "–" : ratio ? String.format(Locale.ROOT, "%.2fx", d) : Verdicts.num(d);
  }

  static Chart bars(RunComparison c) {
    List<String> cats = new ArrayList<>();
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    for (RunComparison.NodeRow n : c.nodes()) {
      for (RunComparison.Row r : List.of(n.solo(), n.together())) {
        if (r.a() != null || r.b() != null) {
          cats.add(n.node() + " " + r.label());
          a.add(r.a());
          b.add(r.b());
        }
      }
    }
    if (c.aggregate().a() != null || c.aggregate().b() != null) {
      cats.add("aggregate");
      a.add(c.aggregate().a());
      b.add(c.aggregate().b());
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("animation", false);
    o.put("tooltip", Map.of("trigger", "axis"));
    o.put("legend", Map.of("data", List.of("A", "B"), "top", 0));
    o.put("grid", Map.of("left", 70, "right", 30, "top", 40, "bottom", 60, "containLabel", true));
    o.put("xAxis", Map.of("type", "category", "data", cats));
    o.put(
        "yAxis",
        Map.of("type", "value", "name", c.unit(), "nameLocation", "middle", "nameGap", 50));
    o.put(
        "series",
        List.of(
            Map.of(
                "name",
                "A",
                "type",
                "bar",
                "data",
                a,
                "label",
                Map.of("show", true, "position", "top")),
            Map.of(
                "name",
                "B",
                "type",
                "bar",
                "data",
                b,
                "label",
                Map.of("show", true, "position", "top"))));
    return new Chart(
        "compare", "A vs B per node and in aggregate", c.unit() + ", means over repeats.", o);
  }
}

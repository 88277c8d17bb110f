package lockstep.coordinator.report.html;

import static lockstep.coordinator.report.html.HtmlPage.esc;
import static lockstep.coordinator.report.html.HtmlPage.labelTd;
import static lockstep.coordinator.report.html.HtmlPage.td;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.analysis.EnvironmentField;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.Stats;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;
import lockstep.coordinator.report.LatencyText;
import lockstep.coordinator.report.SkewText;
import lockstep.coordinator.report.VerdictLines;

/** report.html of one run: verdict, key figures, charts, tables, environment. */
public final class RunHtmlReport {
  private RunHtmlReport() {}

  public static String render(RunRecord run) {
    Analysis a = run.analysis();
    List<Chart> charts = RunCharts.of(run);
    Map<String, Chart> byId = new LinkedHashMap<>();
    charts.forEach(c -> byId.put(c.id(), c));
    HtmlPage page = new HtmlPage("Lockstep: " + run.name() + " (" + run.runId() + ")");
    page.raw(header(run));
    if (a != null) {
      page.raw(verdict(a.findings()));
      page.raw(cards(run, a));
    }
    page.raw("<div class=\"grid2\">");
    if (byId.containsKey("solo-vs-together")) {
      page.chart(byId.get("solo-vs-together"));
    }
    if (byId.containsKey("scaling-curve")) {
      page.chart(byId.get("scaling-curve"));
    }
    page.raw("</div>");
    if (a != null && !a.steps().isEmpty()) {
      page.raw("<h2>Steps (mean over repeats)</h2>").raw(stepTable(run, a));
    }
    page.raw("<h2>Over time</h2>");
    charts.stream().filter(c -> c.id().startsWith("series-")).forEach(page::chart);
    if (ResourceCharts.any(run)) {
      page.raw("<h2>Where the time went</h2>");
      for (StepRecord s : ResourceCharts.steps(run)) {
        page.raw(ResourceCharts.bottleneck(run, s))
            .chart(byId.get(ResourceCharts.chartId(s)))
            .raw(ResourceCharts.table(s));
      }
    }
    if (byId.containsKey("latency")) {
      page.raw("<h2>Latency</h2>").chart(byId.get("latency"));
    }
    page.raw("<h2>Every node in every step, and its start skew</h2>").raw(recordTable(run));
    page.raw("<h2>Environment</h2>").raw(environment(run));
    if (!run.errors().isEmpty()) {
      page.raw(
          "<h2>Errors</h2><ul>"
              + run.errors().stream().map(e -> "<li>" + esc(e) + "</li>").reduce("", String::concat)
              + "</ul>");
    }
    page.raw(
        "<footer>Written by Lockstep "
            + esc(run.coordinatorVersion())
            + " from run.json (schema "
            + esc(run.schema())
            + "). Charts drawn by Apache ECharts "
            + HtmlPage.ECHARTS_VERSION
            + " (Apache License 2.0), inlined: this file needs no network.</footer>");
    return page.render(charts);
  }

  static String header(RunRecord run) {
    String status =
        run.analysis() != null && !run.analysis().valid() ? "invalid" : run.status().toString();
    return "<h1>"
        + esc(run.name())
        + " <span class=\"badge "
        + esc(status)
        + "\">"
        + esc(status.toUpperCase(Locale.ROOT))
        + "</span></h1><p class=\"sub\">Run <code>"
        + esc(run.runId())
        + "</code> · "
        + esc(run.createdAt())
        + " · "
        + esc(run.workloadType())
        + " "
        + esc(run.workloadSettings())
        + " · "
        + run.agents().size()
        + " node(s): "
        + esc(String.join(", ", run.agents().stream().map(AgentRecord::node).toList()))
        + " · plan "
        + esc(run.plan())
        + (run.repeat() > 1 ? " × " + run.repeat() + " repeats" : "")
        + (run.ramp().isEmpty() ? "" : " · ramp " + esc(run.ramp()))
        + "</p>";
  }

  static String verdict(List<Finding> findings) {
    String cls =
        findings.stream().anyMatch(f -> f.severity() == Severity.INVALID)
            ? "invalid"
            : findings.stream().anyMatch(f -> f.severity() == Severity.WARNING)
                ? "warning"
                : "good";
    StringBuilder b =
        new StringBuilder(
            "<section class=\"verdict "
                + cls
                + "\"><h2 style=\"border:0;margin:4px 0\">Verdict</h2><ul class=\"headlines\">");
    VerdictLines.headlines(findings).forEach(l -> b.append(item(l)));
    if (findings.isEmpty()) {
      b.append("<li>No finding: the run has no solo/concurrent pair to compare.</li>");
    }
    b.append("</ul>");
    Map<FindingKind, List<VerdictLines.Line>> rest = VerdictLines.rest(findings);
    if (!rest.isEmpty()) {
      int n = rest.values().stream().mapToInt(List::size).sum();
      b.append("<details class=\"more-findings\"><summary>")
          .append(n)
          .append(n == 1 ? " more finding" : " more findings")
          .append(", by kind</summary>");
      rest.forEach(
          (kind, lines) -> {
            b.append("<h3>").append(esc(kind.heading())).append("</h3><ul>");
            lines.forEach(l -> b.append(item(l)));
            b.append("</ul>");
          });
      b.append("</details>");
    }
    return b.append("</section>").toString();
  }

  private static String item(VerdictLines.Line l) {
    return "<li class=\""
        + esc(l.severity().toString())
        + "\" data-code=\""
        + esc(l.code())
        + "\">"
        + esc(l.shown())
        + "</li>";
  }

  static String cards(RunRecord run, Analysis a) {
    StringBuilder b = new StringBuilder("<div class=\"cards\">");
    card(b, inUnit(a.concurrentSumOfNodes(), run), "all nodes together (aggregate)");
    card(b, inUnit(a.sumOfSolos(), run), "sum of solo figures");
    card(b, times(a.aggregateEfficiency()), "aggregate efficiency (together / sum of solos)");
    card(b, times(a.meanNodeEfficiency()), "per-node efficiency (mean)");
    card(
        b,
        inUnit(a.concurrentOverlapAggregate(), run),
        "aggregate while every node ran (overlap window)");
    card(
        b,
        a.fairness() == null ? null : String.format(Locale.ROOT, "%.3f", a.fairness().jainIndex()),
        "fairness (Jain's index, 1 = even)");
    card(
        b,
        a.maxAbsSkewMillis() == null
            ? null
            : SkewText.of(a.maxAbsSkewMillis(), SkewText.maxUncertaintyMillis(run, null, null))
                + " ms",
        "largest start skew ± clock uncertainty");
    return b.append("</div>").toString();
  }

  /** "1,234 locks/s", or null for no figure. */
  private static String inUnit(Double v, RunRecord run) {
    return v == null ? null : Verdicts.num(v) + " " + run.unit();
  }

  /** "0.87x", or null for no figure. */
  private static String times(Double v) {
    return v == null ? null : String.format(Locale.ROOT, "%.2fx", v);
  }

  private static void card(StringBuilder b, String value, String label) {
    if (value != null) {
      b.append("<div class=\"card\"><div class=\"v\">")
          .append(esc(value))
          .append("</div><div class=\"k\">")
          .append(esc(label))
          .append("</div></div>");
    }
  }

  static String stepTable(RunRecord run, Analysis a) {
    StringBuilder b =
        new StringBuilder(
            "<table><tr><th class=\"l\">step</th><th class=\"l\">node</th><th>repeats"
                + " ok</th><th>mean "
                + esc(run.unit())
                + "</th><th>± stddev</th><th>min</th><th>max</th><th>in overlap"
                + " window</th><th>efficiency</th><th>p50 µs</th><th>p99 µs</th><th>max |skew| ±"
                + " clock ms</th></tr>");
    for (StepSummary s : a.steps()) {
      String rowClass = s.skewTooLarge() || s.okRepeats() < s.repeats() ? " class=\"bad\"" : "";
      for (NodeStepStats n : s.perNode()) {
        b.append("<tr")
            .append(rowClass)
            .append(">")
            .append(labelTd(s.group()))
            .append(labelTd(n.node()))
            .append(td(s.okRepeats() + "/" + s.repeats()))
            .append(stats(n.throughput()))
            .append(
                td(
                    n.overlapThroughput() == null
                        ? "–"
                        : Verdicts.num(n.overlapThroughput().mean())))
            .append(
                td(
                    n.efficiency() == null
                        ? "–"
                        : String.format(Locale.ROOT, "%.2fx", n.efficiency())))
            .append(td(LatencyText.p50(n.latency())))
            .append(td(LatencyText.p99(n.latency())))
            .append(
                td(
                    SkewText.of(
                        n.maxAbsSkewMillis(),
                        SkewText.maxUncertaintyMillis(run, s.group(), n.node()))))
            .append("</tr>");
      }
      if (s.perNode().size() > 1 && s.aggregate() != null) {
        b.append("<tr")
            .append(rowClass)
            .append(">")
            .append(labelTd(s.group()))
            .append("<td class=\"l\"><b>all ")
            .append(s.perNode().size())
            .append(" nodes</b></td>")
            .append(td(s.okRepeats() + "/" + s.repeats()))
            .append(stats(s.aggregate()))
            .append(
                td(s.overlapAggregate() == null ? "–" : Verdicts.num(s.overlapAggregate().mean())))
            .append(
                td(
                    s.aggregateEfficiency() == null
                        ? "–"
                        : String.format(Locale.ROOT, "%.2fx", s.aggregateEfficiency())))
            .append(td(""))
            .append(td(""))
            .append(
                td(
                    SkewText.of(
                        s.maxAbsSkewMillis(), SkewText.maxUncertaintyMillis(run, s.group(), null))))
            .append("</tr>");
      }
    }
    return b.append("</table>").toString();
  }

  private static String stats(Stats s) {
    if (s == null) {
      return td("–") + td("") + td("") + td("");
    }
    return td(Verdicts.num(s.mean()))
        + td(s.n() > 1 ? Verdicts.num(s.stddev()) : "–")
        + td(Verdicts.num(s.min()))
        + td(Verdicts.num(s.max()));
  }

  static String recordTable(RunRecord run) {
    StringBuilder b =
        new StringBuilder(
            "<table><tr><th class=\"l\">step</th><th class=\"l\">node</th><th>"
                + esc(run.unit())
                + "</th><th>ops</th><th>time s</th><th>start skew ± clock ms</th><th>clock offset"
                + " ms</th><th>p50 µs</th><th>p99 µs</th><th class=\"l\">status</th></tr>");
    for (StepRecord s : run.steps()) {
      boolean bad =
          !s.ok()
              || s.aggregate() != null
                  && s.results().size() > 1
                  && RunAnalyzer.skewTooLarge(s, run.skewWarnFraction());
      for (NodeResult n : s.results()) {
        b.append("<tr")
            .append(bad ? " class=\"bad\"" : "")
            .append(">")
            .append(labelTd(s.id()))
            .append(labelTd(n.node()))
            .append(td(Verdicts.num(n.throughput())))
            .append(td(Long.toString(n.ops())))
            .append(td(String.format(Locale.ROOT, "%.3f", n.seconds())))
            .append(td(SkewText.signed(n.startSkewMillis(), n.clockUncertaintyMillis())))
            .append(td(String.format(Locale.ROOT, "%+.3f", n.clockOffsetMillis())))
            .append(td(LatencyText.p50(n.latency())))
            .append(td(LatencyText.p99(n.latency())))
            .append(labelTd(n.status() + (n.error() == null ? "" : ": " + n.error().message())))
            .append("</tr>");
      }
      if (s.results().isEmpty()) {
        b.append("<tr class=\"bad\">")
            .append(labelTd(s.id()))
            .append(labelTd(String.join(", ", s.nodes())))
            .append("<td colspan=\"7\"></td>")
            .append(labelTd(s.status() + ": " + String.join("; ", s.errors())))
            .append("</tr>");
      }
    }
    return b.append(
            "</table><p class=\"muted\">Start skew: each node's first operation minus the intended"
                + " start instant, on the coordinator's clock (agent clock minus its measured"
                + " offset), good to within the uncertainty. Rows in red: a failed step, or a skew"
                + " or clock uncertainty above "
                + Math.round(run.skewWarnFraction() * 100)
                + "% of the step (skew-warn-percent).</p>")
        .toString();
  }

  static String environment(RunRecord run) {
    List<AgentRecord> agents = run.agents();
    // watch-only nodes (a file server) are shown beside, not compared: they are unalike by design
    List<AgentRecord> all = new ArrayList<>(agents);
    all.addAll(run.watchers());
    StringBuilder b = new StringBuilder("<table><tr><th class=\"l\"></th>");
    agents.forEach(x -> b.append("<th class=\"l\">").append(esc(x.node())).append("</th>"));
    run.watchers()
        .forEach(
            x -> b.append("<th class=\"l\">").append(esc(x.node())).append(" (watch-only)</th>"));
    b.append("</tr>");
    for (EnvironmentField f : EnvironmentField.of(all)) {
      boolean differs = f.differs(agents);
      b.append("<tr><th class=\"l\">").append(esc(f.label())).append("</th>");
      all.forEach(
          x -> {
            String v = f.valueOf(x);
            b.append("<td class=\"l")
                .append(differs && agents.contains(x) ? " diff" : "")
                .append("\">")
                .append(esc(v.isEmpty() ? "–" : v))
                .append("</td>");
          });
      b.append("</tr>");
    }
    b.append("</table>");
    if (run.analysis() != null && !run.analysis().environmentDifferences().isEmpty()) {
      b.append("<p><b>Differences between nodes</b> (highlighted):</p><ul>");
      run.analysis()
          .environmentDifferences()
          .forEach(d -> b.append("<li>").append(esc(d)).append("</li>"));
      b.append("</ul>");
    } else if (run.agents().stream().allMatch(x -> x.clusterSettings().isEmpty())) {
      b.append(
          "<p class=\"muted\">No cluster settings files were found on the nodes"
              + " (/etc/cluster/cluster.conf; OCFS2/GFS2 mount options).</p>");
    }
    return b.toString();
  }
}

package lockstep.coordinator.report.compare;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/**
 * {@code lockstep compare}'s significance section: for every plan step both runs have (solo-node1,
 * ramp-2, all ...), per node and for the step's aggregate, B / A of the repeats' throughputs with
 * its 95% confidence interval and, in words, whether the difference is within the noise ({@link
 * Significance}). The repeats are the successful steps of run.json, the same values the repeat
 * statistics are made of.
 */
public record SignificanceTable(List<Line> lines) {
  /** The label of a step's aggregate line. */
  public static final String ALL_NODES = "(all nodes)";

  /**
   * @param aMean mean of A's repeats
   */
  public record Line(String step, String node, double aMean, double bMean, Significance s) {}

  public static SignificanceTable of(RunRecord a, RunRecord b) {
    Map<String, Map<String, List<Double>>> ra = repeats(a);
    Map<String, Map<String, List<Double>>> rb = repeats(b);
    List<Line> lines = new ArrayList<>();
    for (var step : ra.entrySet()) {
      Map<String, List<Double>> other = rb.get(step.getKey());
      if (other == null) {
        continue;
      }
      for (var node : step.getValue().entrySet()) {
        List<Double> y = other.get(node.getKey());
        if (y == null || y.isEmpty() || node.getValue().isEmpty()) {
          continue;
        }
        double[] x = node.getValue().stream().mapToDouble(Double::doubleValue).toArray();
        double[] yy = y.stream().mapToDouble(Double::doubleValue).toArray();
        lines.add(
            new Line(step.getKey(), node.getKey(), mean(x), mean(yy), Significance.of(x, yy)));
      }
    }
    return new SignificanceTable(List.copyOf(lines));
  }

  /** Per plan step (in plan order), per node then the aggregate: each repeat's throughput. */
  static Map<String, Map<String, List<Double>>> repeats(RunRecord r) {
    Map<String, Map<String, List<Double>>> out = new LinkedHashMap<>();
    for (StepRecord s : r.steps()) {
      if (!s.ok()) {
        continue;
      }
      Map<String, List<Double>> step = out.computeIfAbsent(s.group(), g -> new LinkedHashMap<>());
      for (String node : s.nodes()) {
        step.computeIfAbsent(node, n -> new ArrayList<>());
      }
      for (NodeResult n : s.results()) {
        step.computeIfAbsent(n.node(), x -> new ArrayList<>()).add(n.throughput());
      }
      if (s.nodes().size() > 1 && s.aggregate() != null) {
        step.computeIfAbsent(ALL_NODES, x -> new ArrayList<>()).add(s.aggregate().sumOfNodes());
      }
    }
    // the aggregate after the nodes
    for (Map<String, List<Double>> step : out.values()) {
      List<Double> agg = step.remove(ALL_NODES);
      if (agg != null) {
        step.put(ALL_NODES, agg);
      }
    }
    return out;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  /**
   * In words: which figures differ beyond the noise (with B / A), which are within it, which were
   * not judged.
   */
  public List<String> summary() {
    List<String> different = new ArrayList<>();
    List<String> noise = new ArrayList<>();
    Set<String> unjudged = new LinkedHashSet<>();
    for (Line l : lines) {
      String what = l.step() + " " + l.node();
      switch (l.s().verdict()) {
        case DIFFERENT ->
            different.add(what + " " + String.format(Locale.ROOT, "%.2fx", l.s().ratio()));
        case WITHIN_NOISE -> noise.add(what);
        case TOO_FEW_REPEATS -> unjudged.add(l.step());
      }
    }
    List<String> out = new ArrayList<>();
    if (!different.isEmpty()) {
      out.add("beyond the repeats' noise (95%): " + String.join(", ", different));
    }
    if (!noise.isEmpty()) {
      out.add("within the repeats' noise, may be chance: " + String.join(", ", noise));
    }
    if (!unjudged.isEmpty()) {
      out.add(
          "not judged (fewer than 2 repeats on a side) in step(s) "
              + String.join(", ", unjudged)
              + ": run both with repeat: 3 or more");
    }
    return out;
  }

  /** No line could be judged (no repeats on a side anywhere): one sentence says so. */
  private boolean nothingJudged() {
    return lines.stream().allMatch(l -> l.s().verdict() == Significance.Verdict.TOO_FEW_REPEATS);
  }

  public void print(PrintStream out, String unit) {
    if (lines.isEmpty()) {
      return;
    }
    if (nothingJudged()) {
      out.printf("%nSignificance: %s.%n", summary().get(0));
      return;
    }
    out.printf(
        "%nSignificance: B / A per step with its 95%% confidence interval over the repeats"
            + " (Welch's t-test on log throughput)%n");
    out.printf(
        "%-14s %-12s %16s %16s %7s  %-18s %s%n",
        "step", "node", "A " + unit + " (n)", "B " + unit + " (n)", "B / A", "95% CI", "call");
    for (Line l : lines) {
      out.printf(
          Locale.ROOT,
          "%-14s %-12s %16s %16s %7s  %-18s %s%n",
          l.step(),
          l.node(),
          Verdicts.num(l.aMean()) + " (" + l.s().nA() + ")",
          Verdicts.num(l.bMean()) + " (" + l.s().nB() + ")",
          String.format(Locale.ROOT, "%.2fx", l.s().ratio()),
          l.s().interval(),
          l.s().words());
    }
    summary().forEach(s -> out.println("  " + s + "."));
  }

  public String html(String unit) {
    if (lines.isEmpty()) {
      return "";
    }
    if (nothingJudged()) {
      return "<h2>Significance</h2><p>" + esc(summary().get(0)) + ".</p>";
    }
    StringBuilder t =
        new StringBuilder(
            "<h2>Significance</h2><p class=\"sub\">B / A per plan step with its 95% confidence"
                + " interval over the repeats (Welch's t-test on log throughput, commons-math3)."
                + "</p><ul>");
    summary().forEach(s -> t.append("<li>").append(esc(s)).append(".</li>"));
    t.append("</ul><table><tr><th class=\"l\">step</th><th class=\"l\">node</th><th>A ")
        .append(esc(unit))
        .append(" (n)</th><th>B ")
        .append(esc(unit))
        .append(" (n)</th><th>B / A</th><th>95% CI</th><th class=\"l\">call</th></tr>");
    for (Line l : lines) {
      String cls =
          switch (l.s().verdict()) {
            case DIFFERENT -> "good";
            case WITHIN_NOISE -> "warning";
            case TOO_FEW_REPEATS -> "";
          };
      t.append("<tr class=\"")
          .append(cls)
          .append("\"><td class=\"l\">")
          .append(esc(l.step()))
          .append("</td><td class=\"l\">")
          .append(esc(l.node()))
          .append("</td><td>")
          .append(esc(Verdicts.num(l.aMean())))
          .append(" (")
          .append(l.s().nA())
          .append(")</td><td>")
          .append(esc(Verdicts.num(l.bMean())))
          .append(" (")
          .append(l.s().nB())
          .append(")</td><td>")
          .append(String.format(Locale.ROOT, "%.2fx", l.s().ratio()))
          .append("</td><td>")
          .append(esc(l.s().interval()))
          .append("</td><td class=\"l\">")
          .append(esc(l.s().words()))
          .append("</td></tr>");
    }
    return t.append("</table>").toString();
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}

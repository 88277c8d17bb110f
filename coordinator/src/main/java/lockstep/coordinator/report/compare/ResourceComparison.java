package lockstep.coordinator.report.compare;

import static lockstep.coordinator.report.html.HtmlPage.row;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import lockstep.coordinator.analysis.Bottlenecks;
import lockstep.coordinator.analysis.NodeLoad;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.RunRecord;

/**
 * The resource figures of two runs side by side, per step and node, and each step's bottleneck in A
 * and B: did a tuning change move the bottleneck?
 */
public record ResourceComparison(List<Line> lines, List<StepBottleneck> bottlenecks) {

  /** One figure of one node in one step, in A and B ("-" where a run lacks it). */
  public record Line(String step, String node, String figure, String a, String b) {}

  public record StepBottleneck(String step, String a, String b) {}

  private static final Map<String, Function<NodeLoad, String>> FIGURES = figures();

  private static Map<String, Function<NodeLoad, String>> figures() {
    Map<String, Function<NodeLoad, String>> m = new LinkedHashMap<>();
    m.put("CPU busy", l -> pct(l.cpuBusyPercent()));
    m.put("workload's own CPU", l -> pct(l.workloadCpuPercent()));
    m.put(
        "device busy",
        l -> l.hasDevice() ? pct(l.deviceBusyPercent()) + " (" + l.device() + ")" : "no device");
    m.put(
        "device MB/s",
        l -> l.hasDevice() ? String.format(Locale.ROOT, "%.1f", l.deviceMBps()) : "-");
    m.put(
        "network MB/s",
        l ->
            l.iface().isEmpty()
                ? "-"
                : String.format(Locale.ROOT, "%.2f (%s)", l.ifaceMBps(), l.iface()));
    m.put(
        "time in lock calls", l -> l.lockWaitShare() == null ? "-" : pct(l.lockWaitShare() * 100));
    m.put("dirty at end", l -> Bottlenecks.bytes(l.dirtyBytes()));
    return m;
  }

  public static ResourceComparison of(RunRecord a, RunRecord b) {
    Map<String, List<NodeLoad>> la = NodeLoad.byGroup(a);
    Map<String, List<NodeLoad>> lb = NodeLoad.byGroup(b);
    Set<String> steps = new LinkedHashSet<>(la.keySet());
    steps.addAll(lb.keySet());
    List<Line> lines = new ArrayList<>();
    List<StepBottleneck> bottlenecks = new ArrayList<>();
    for (String step : steps) {
      Set<String> nodes = new LinkedHashSet<>();
      la.getOrDefault(step, List.of()).forEach(l -> nodes.add(l.node()));
      lb.getOrDefault(step, List.of()).forEach(l -> nodes.add(l.node()));
      for (String node : nodes) {
        NodeLoad x = find(la, step, node);
        NodeLoad y = find(lb, step, node);
        FIGURES.forEach(
            (name, f) ->
                lines.add(
                    new Line(
                        step,
                        node,
                        name,
                        x == null ? "-" : f.apply(x),
                        y == null ? "-" : f.apply(y))));
      }
      bottlenecks.add(new StepBottleneck(step, bottleneck(a, step), bottleneck(b, step)));
    }
    return new ResourceComparison(List.copyOf(lines), List.copyOf(bottlenecks));
  }

  private static NodeLoad find(Map<String, List<NodeLoad>> loads, String step, String node) {
    return loads.getOrDefault(step, List.of()).stream()
        .filter(l -> l.node().equals(node))
        .findFirst()
        .orElse(null);
  }

  /** The step's bottleneck sentence (without the "Step X: " prefix), or "-". */
  private static String bottleneck(RunRecord r, String step) {
    if (r.analysis() == null) {
      return "-";
    }
    String prefix = "Step " + step + ": ";
    return r.analysis().findings().stream()
        .filter(
            f ->
                f.kind() == FindingKind.BOTTLENECK
                    && f.type() != FindingCode.PAGE_CACHE
                    && step.equals(f.step())
                    && f.message().startsWith(prefix))
        .map(Finding::message)
        .map(m -> m.substring(prefix.length()))
        .findFirst()
        .orElse("-");
  }

  public boolean isEmpty() {
    return lines.isEmpty();
  }

  public void print(PrintStream out) {
    if (isEmpty()) {
      return;
    }
    out.printf("%nWhere the time went (A vs B)%n");
    for (StepBottleneck s : bottlenecks) {
      out.printf("  %s%n    A: %s%n    B: %s%n", s.step(), s.a(), s.b());
    }
    out.printf("%-14s %-12s %-20s %22s %22s%n", "step", "node", "figure", "A", "B");
    for (Line l : lines) {
      out.printf("%-14s %-12s %-20s %22s %22s%n", l.step(), l.node(), l.figure(), l.a(), l.b());
    }
  }

  public String html() {
    if (isEmpty()) {
      return "";
    }
    StringBuilder b =
        new StringBuilder(
            "<h2>Where the time went (A vs B)</h2><table><tr><th class=\"l\">step</th>"
                + "<th class=\"l\">A: bottleneck</th><th class=\"l\">B: bottleneck</th></tr>");
    bottlenecks.forEach(s -> b.append(row(3, s.step(), s.a(), s.b())));
    b.append(
        "</table><table class=\"resources\"><tr><th class=\"l\">step</th><th"
            + " class=\"l\">node</th><th class=\"l\">figure</th><th>A</th><th>B</th></tr>");
    lines.forEach(l -> b.append(row(3, l.step(), l.node(), l.figure(), l.a(), l.b())));
    return b.append("</table>").toString();
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f%%", v);
  }
}

package lockstep.coordinator.report.compare;

import java.io.PrintStream;
import java.util.Locale;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.RunRecord;

/** `lockstep compare` on the terminal: A and B side by side with B / A. */
public final class CompareTextReport {
  private CompareTextReport() {}

  /** "A: RUN-ID TYPE {workload}, N node(s), CREATED". */
  private static void header(PrintStream out, String which, RunRecord r) {
    out.printf(
        "%s: %s  %s %s, %d node(s), %s%n",
        which, r.runId(), r.workloadType(), r.workloadSettings(), r.agents().size(), r.createdAt());
  }

  public static void print(RunComparison c, PrintStream out) {
    header(out, "A", c.a());
    header(out, "B", c.b());
    c.warnings().forEach(w -> out.println("WARNING: " + w));
    if (!c.settingDifferences().isEmpty()) {
      out.println("Settings that changed from A to B:");
      c.settingDifferences().forEach(d -> out.println("  " + d));
    }
    out.printf(
        "%n%-12s %-19s %14s %14s %9s%n", "node", "step", "A " + c.unit(), "B " + c.unit(), "B / A");
    for (RunComparison.NodeRow n : c.nodes()) {
      row(out, n.node(), "solo", n.solo(), false);
      row(out, n.node(), "together", n.together(), false);
    }
    out.println();
    for (RunComparison.Row r :
        new RunComparison.Row[] {c.aggregate(), c.overlapAggregate(), c.sumOfSolos()}) {
      row(out, r.label(), "", r, false);
    }
    row(out, c.aggregateEfficiency().label(), "", c.aggregateEfficiency(), true);
    row(out, c.meanNodeEfficiency().label(), "", c.meanNodeEfficiency(), true);
    RunComparison.Row agg = c.aggregate();
    if (agg.ratio() != null) {
      out.printf(
          Locale.ROOT,
          "%nB reached %.2fx A's aggregate (%s vs %s %s)%s.%n",
          agg.ratio(),
          Verdicts.num(agg.b()),
          Verdicts.num(agg.a()),
          c.unit(),
          c.settingChanges().isEmpty() ? "" : ", with " + String.join("; ", c.settingChanges()));
    }
    SignificanceTable.of(c.a(), c.b()).print(out, c.unit());
    ResourceComparison.of(c.a(), c.b()).print(out);
  }

  private static void row(
      PrintStream out, String label, String step, RunComparison.Row r, boolean ratioValues) {
    if (r.a() == null && r.b() == null) {
      return;
    }
    String label2 =
        step.isEmpty() ? String.format("%-32s", label) : String.format("%-12s %-19s", label, step);
    out.printf(
        Locale.ROOT,
        "%s %14s %14s %9s%n",
        label2,
        v(r.a(), ratioValues),
        v(r.b(), ratioValues),
        r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.ratio()));
  }

  private static String v(Double d, boolean ratio) {
    return d == null ? "-" : ratio ? String.format(Locale.ROOT, "%.2fx", d) : Verdicts.num(d);
  }
}

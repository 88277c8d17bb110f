package lockstep.coordinator.report;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.ScalingPoint;
import lockstep.coordinator.model.Stats;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/** The terminal report: per step and node, repeat statistics, scaling, and the verdict. */
public final class TextReport {
  private TextReport() {}

  public static void print(RunRecord run, PrintStream out) {
    out.printf(
        "%nLockstep run %s: %s on %d node(s), %s%n",
        run.runId(), run.workloadType(), run.agents().size(), run.workloadSettings());
    if (!run.watchers().isEmpty()) {
      out.printf(
          "Watch-only (no workload, resources only): %s%n",
          String.join(", ", run.watchers().stream().map(a -> a.node()).toList()));
    }
    out.printf(
        "%n%-14s %-12s %12s %10s %9s %19s %10s %10s  %s%n",
        "step",
        "node",
        run.unit(),
        "ops",
        "time s",
        "skew ± clock ms",
        "p50 us",
        "p99 us",
        "status");
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.results()) {
        out.printf(
            Locale.ROOT,
            "%-14s %-12s %12s %10d %9.3f %19s %10s %10s  %s%n",
            s.id(),
            n.node(),
            Verdicts.num(n.throughput()),
            n.ops(),
            n.seconds(),
            SkewText.of(n.startSkewMillis(), n.clockUncertaintyMillis()),
            LatencyText.p50(n.latency()),
            LatencyText.p99(n.latency()),
            n.status());
      }
      if (s.aggregate() != null && s.results().size() > 1) {
        var a = s.aggregate();
        out.printf(
            Locale.ROOT,
            "%-14s %-12s %12s %10d %9.3f %19s %10s %10s  %s%n",
            s.id(),
            "(all nodes)",
            Verdicts.num(a.sumOfNodes()),
            a.ops(),
            a.seconds(),
            SkewText.of(a.maxAbsSkewMillis(), RunAnalyzer.maxClockUncertaintyMillis(s)),
            LatencyText.p50(a.latency()),
            LatencyText.p99(a.latency()),
            s.status());
      }
      if (s.results().isEmpty()) {
        out.printf(
            "%-14s %-12s %12s %10s %9s %19s %10s %10s  %s%n",
            s.id(), String.join(",", s.nodes()), "-", "-", "-", "-", "-", "-", s.status());
      }
    }
    printWorkloadFigures(run, out);
    Analysis a = run.analysis();
    if (a == null) {
      return;
    }
    FaultText.print(run, a, out);
    if (run.repeat() > 1 || a.steps().stream().anyMatch(s -> s.overlapAggregate() != null)) {
      printSteps(run, a, out);
    }
    if (a.nodes().stream().anyMatch(n -> n.efficiency() != null)) {
      out.printf(
          "%nScaling (all nodes at once vs each node alone%s)%n",
          run.repeat() > 1 ? ", means over repeats" : "");
      out.printf("%-12s %14s %14s %11s%n", "node", "solo " + run.unit(), "together", "efficiency");
      for (NodeScaling n : a.nodes()) {
        out.printf(
            Locale.ROOT,
            "%-12s %14s %14s %11s%n",
            n.node(),
            fmt(n.solo()),
            fmt(n.concurrent()),
            n.efficiency() == null ? "-" : String.format(Locale.ROOT, "%.2fx", n.efficiency()));
      }
      if (a.sumOfSolos() != null && a.concurrentSumOfNodes() != null) {
        out.printf(
            Locale.ROOT,
            "%-12s %14s %14s %11s%n",
            "aggregate",
            fmt(a.sumOfSolos()),
            fmt(a.concurrentSumOfNodes()),
            a.aggregateEfficiency() == null
                ? "-"
                : String.format(Locale.ROOT, "%.2fx", a.aggregateEfficiency()));
      }
      if (a.fairness() != null) {
        out.printf(
            Locale.ROOT,
            "fairness: Jain's index %.3f, slowest/fastest node %.2f (%s / %s)%n",
            a.fairness().jainIndex(),
            a.fairness().minOverMax(),
            a.fairness().slowest(),
            a.fairness().fastest());
      }
    }
    if (a.scaling().size() > 2) {
      out.printf(
          "%nScaling curve%n%-6s %-12s %14s %14s %14s %11s%n",
          "nodes", "step", "aggregate", "overlap window", "ideal", "efficiency");
      for (ScalingPoint p : a.scaling()) {
        out.printf(
            Locale.ROOT,
            "%-6d %-12s %14s %14s %14s %11s%n",
            p.nodes(),
            p.group(),
            fmt(p.aggregate()),
            fmt(p.overlapAggregate()),
            fmt(p.ideal()),
            p.efficiency() == null ? "-" : String.format(Locale.ROOT, "%.2fx", p.efficiency()));
      }
    }
    if (!a.findings().isEmpty()) {
      out.printf("%nVerdict%s:%n", a.valid() ? "" : " (RUN INVALID)");
      for (VerdictLines.Line l : VerdictLines.headlines(a.findings())) {
        out.println("  " + l.prefix() + l.shown());
      }
      Map<FindingKind, List<VerdictLines.Line>> rest = VerdictLines.rest(a.findings());
      if (!rest.isEmpty()) {
        out.printf("%nMore findings, by kind:%n");
        rest.forEach(
            (kind, lines) -> {
              out.println("  " + kind.heading() + ":");
              lines.forEach(l -> out.println("    " + l.prefix() + l.shown()));
            });
      }
    } else if (!a.verdict().isEmpty()) {
      out.printf("%nVerdict:%n");
      a.verdict().forEach(v -> out.println("  " + v));
    }
  }

  /**
   * What some workloads measure beyond throughput: coherence, try-lock retries, shares,
   * per-operation rates.
   */
  private static void printWorkloadFigures(RunRecord run, PrintStream out) {
    boolean coherence = false;
    boolean retries = false;
    boolean shares = run.kind() != null && run.kind().sharesOfOneLock();
    boolean operations = false;
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.results()) {
        coherence |= n.coherenceChecks() > 0;
        retries |= n.lockRetries() > 0;
        operations |= n.operations() != null && !n.operations().isEmpty();
      }
    }
    if (!coherence && !retries && !shares && !operations) {
      return;
    }
    out.printf("%n%-14s %-12s %s%n", "step", "node", "workload figures");
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.results()) {
        StringBuilder b = new StringBuilder();
        if (coherence) {
          b.append(
              String.format(
                  Locale.ROOT,
                  "coherence errors %d of %d checks  ",
                  n.coherenceErrors(),
                  n.coherenceChecks()));
        }
        if (retries) {
          b.append(String.format(Locale.ROOT, "try-lock retries %d  ", n.lockRetries()));
        }
        if (shares && n.opsShare() != null) {
          b.append(
              String.format(Locale.ROOT, "share of acquisitions %.1f%%  ", n.opsShare() * 100));
        }
        if (operations) {
          for (var op : n.operations()) {
            b.append(
                String.format(
                    Locale.ROOT,
                    "%s %s/s (p99 %.1f us)  ",
                    op.name(),
                    Verdicts.num(op.rate()),
                    op.latency() == null ? 0 : op.latency().p99Micros()));
          }
        }
        out.printf("%-14s %-12s %s%n", s.id(), n.node(), b.toString().strip());
      }
    }
  }

  private static void printSteps(RunRecord run, Analysis a, PrintStream out) {
    out.printf(
        "%nSteps over %d repeat(s): mean ± stddev [min .. max] %s%n", run.repeat(), run.unit());
    out.printf(
        "%-12s %-12s %28s %14s %11s%n",
        "step", "node", "whole run", "overlap window", "efficiency");
    for (StepSummary s : a.steps()) {
      for (NodeStepStats n : s.perNode()) {
        printStep(out, s.group(), n.node(), n.throughput(), n.overlapThroughput(), n.efficiency());
      }
      if (s.perNode().size() > 1 && s.aggregate() != null) {
        printStep(
            out,
            s.group(),
            "(all nodes)",
            s.aggregate(),
            s.overlapAggregate(),
            s.aggregateEfficiency());
      }
    }
  }

  /** One row of the steps table: a node's figures, or all the step's nodes' together. */
  private static void printStep(
      PrintStream out, String step, String node, Stats whole, Stats overlap, Double efficiency) {
    out.printf(
        Locale.ROOT,
        "%-12s %-12s %28s %14s %11s%n",
        step,
        node,
        stats(whole),
        overlap == null ? "-" : Verdicts.num(overlap.mean()),
        efficiency == null ? "-" : String.format(Locale.ROOT, "%.2fx", efficiency));
  }

  private static String stats(Stats s) {
    if (s == null) {
      return "-";
    }
    if (s.n() == 1) {
      return Verdicts.num(s.mean());
    }
    return Verdicts.num(s.mean())
        + " ± "
        + Verdicts.num(s.stddev())
        + " ["
        + Verdicts.num(s.min())
        + " .. "
        + Verdicts.num(s.max())
        + "]";
  }

  private static String fmt(Double v) {
    return v == null ? "-" : Verdicts.num(v);
  }
}

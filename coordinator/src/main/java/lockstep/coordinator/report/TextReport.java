package lockstep.coordinator.report;

import java.io.PrintStream;
import java.util.Locale;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/** The terminal report: per step and node, the scaling table, and the verdict. */
public final class TextReport {
    private TextReport() {
    }

    public static void print(RunRecord run, PrintStream out) {
        out.printf("%nLockstep run %s: %s on %d node(s), %s%n", run.runId(), run.workloadType(), run.agents().size(),
                run.workload());
        out.printf("%n%-14s %-12s %12s %10s %9s %10s %10s %10s  %s%n", "step", "node", run.unit(), "ops", "time s",
                "skew ms", "p50 us", "p99 us", "status");
        for (StepRecord s : run.steps()) {
            for (NodeResult n : s.results()) {
                out.printf(Locale.ROOT, "%-14s %-12s %12s %10d %9.3f %10.3f %10.1f %10.1f  %s%n", s.id(), n.node(),
                        ScalingAnalysis.num(n.throughput()), n.ops(), n.seconds(), n.startSkewMillis(),
                        n.latency().p50Micros(), n.latency().p99Micros(), n.status());
            }
            if (s.aggregate() != null && s.results().size() > 1) {
                var a = s.aggregate();
                out.printf(Locale.ROOT, "%-14s %-12s %12s %10d %9.3f %10.3f %10.1f %10.1f  %s%n", s.id(), "(all nodes)",
                        ScalingAnalysis.num(a.sumOfNodes()), a.ops(), a.seconds(), a.maxAbsSkewMillis(),
                        a.latency().p50Micros(), a.latency().p99Micros(), s.status());
            }
            if (s.results().isEmpty()) {
                out.printf("%-14s %-12s %12s %10s %9s %10s %10s %10s  %s%n", s.id(), String.join(",", s.nodes()),
                        "-", "-", "-", "-", "-", "-", s.status());
            }
        }
        Analysis a = run.analysis();
        if (a != null && a.nodes().stream().anyMatch(n -> n.efficiency() != null)) {
            out.printf("%nScaling (all nodes at once vs each node alone)%n");
            out.printf("%-12s %14s %14s %11s%n", "node", "solo " + run.unit(), "together", "efficiency");
            for (NodeScaling n : a.nodes()) {
                out.printf(Locale.ROOT, "%-12s %14s %14s %11s%n", n.node(), fmt(n.solo()), fmt(n.concurrent()),
                        n.efficiency() == null ? "-" : String.format(Locale.ROOT, "%.2fx", n.efficiency()));
            }
            if (a.sumOfSolos() != null && a.concurrentSumOfNodes() != null) {
                out.printf(Locale.ROOT, "%-12s %14s %14s %11s%n", "aggregate", fmt(a.sumOfSolos()), fmt(a.concurrentSumOfNodes()),
                        a.aggregateEfficiency() == null ? "-" : String.format(Locale.ROOT, "%.2fx", a.aggregateEfficiency()));
            }
        }
        if (a != null && !a.verdict().isEmpty()) {
            out.printf("%nVerdict:%n");
            a.verdict().forEach(v -> out.println("  " + v));
        }
    }

    private static String fmt(Double v) {
        return v == null ? "-" : ScalingAnalysis.num(v);
    }
}

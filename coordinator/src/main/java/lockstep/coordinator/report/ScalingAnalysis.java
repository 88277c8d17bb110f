package lockstep.coordinator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/**
 * Solo vs concurrent: per-node efficiency (concurrent / solo), aggregate vs sum of solos, and
 * the verdict in plain words. Every figure comes from the run's measured steps.
 */
public final class ScalingAnalysis {
    static final double SCALES_WELL = 0.9;

    private ScalingAnalysis() {
    }

    public static Analysis analyse(RunRecord run, double skewWarnFraction) {
        Optional<StepRecord> all = run.steps().stream().filter(s -> "all".equals(s.kind()) && s.ok()).findFirst();
        List<NodeScaling> nodes = new ArrayList<>();
        double sumSolos = 0;
        boolean allSolos = true;
        for (var agent : run.agents()) {
            Double solo = soloOf(run, agent.node());
            Double conc = all.flatMap(s -> nodeIn(s, agent.node())).map(NodeResult::throughput).orElse(null);
            Double eff = solo != null && conc != null && solo > 0 ? conc / solo : null;
            nodes.add(new NodeScaling(agent.node(), solo, conc, eff));
            if (solo == null) {
                allSolos = false;
            } else {
                sumSolos += solo;
            }
        }
        Double concSum = all.map(s -> s.aggregate() == null ? null : s.aggregate().sumOfNodes()).orElse(null);
        Double concAgg = all.map(s -> s.aggregate() == null ? null : s.aggregate().throughput()).orElse(null);
        Double aggEff = allSolos && concSum != null && sumSolos > 0 ? concSum / sumSolos : null;
        List<Double> effs = nodes.stream().map(NodeScaling::efficiency).filter(e -> e != null).toList();
        Double meanEff = effs.isEmpty() || effs.size() != nodes.size() ? null
                : effs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        Double maxSkew = run.steps().stream().filter(s -> s.aggregate() != null)
                .map(s -> s.aggregate().maxAbsSkewMillis()).max(Double::compare).orElse(null);
        List<String> verdict = verdict(run, nodes, allSolos ? sumSolos : null, concSum, aggEff, meanEff, skewWarnFraction);
        return new Analysis(List.copyOf(nodes), allSolos ? sumSolos : null, concSum, concAgg, aggEff, meanEff, maxSkew, verdict);
    }

    private static Double soloOf(RunRecord run, String node) {
        return run.steps().stream()
                .filter(s -> "solo".equals(s.kind()) && s.ok() && s.nodes().equals(List.of(node)))
                .findFirst().flatMap(s -> nodeIn(s, node)).map(NodeResult::throughput).orElse(null);
    }

    private static Optional<NodeResult> nodeIn(StepRecord s, String node) {
        return s.results().stream().filter(r -> r.node().equals(node)).findFirst();
    }

    private static List<String> verdict(RunRecord run, List<NodeScaling> nodes, Double sumSolos, Double concSum,
                                        Double aggEff, Double meanEff, double skewWarnFraction) {
        List<String> out = new ArrayList<>();
        String what = "write".equals(run.opName()) ? "write throughput" : "lock rate";
        String unit = run.unit();
        if (!run.errors().isEmpty()) {
            out.add("The run failed: " + run.errors().get(0));
        }
        if (meanEff != null) {
            double min = nodes.stream().mapToDouble(NodeScaling::efficiency).min().orElse(0);
            double max = nodes.stream().mapToDouble(NodeScaling::efficiency).max().orElse(0);
            String range = nodes.size() > 1 ? f(" (%.2fx to %.2fx)", min, max) : "";
            if (meanEff >= SCALES_WELL) {
                out.add(f("Running together, each node kept %.2fx of its solo %s%s: the nodes scale well.", meanEff, what, range));
            } else {
                out.add(f("Running together, each node kept %.2fx of its solo %s%s (scaling loss %.0f%%).",
                        meanEff, what, range, (1 - meanEff) * 100));
            }
        }
        if (aggEff != null && sumSolos != null && concSum != null && nodes.size() > 1) {
            out.add(f("All %d nodes together reached %s %s, %.2fx the sum of their solo figures (%s %s).",
                    nodes.size(), num(concSum), unit, aggEff, num(sumSolos), unit));
            if (aggEff < 1.0 / nodes.size() * 1.15 && aggEff > 0) {
                out.add("The aggregate did not grow with more nodes: the nodes share one bottleneck"
                        + ("lock".equals(run.opName()) ? " (a cluster lock manager or a rate limit)." : " (shared storage or a cluster-wide lock)."));
            }
        }
        if (meanEff == null && concSum != null) {
            out.add(f("All %d nodes together: %s %s in total.", nodes.size(), num(concSum), unit));
        }
        for (StepRecord s : run.steps()) {
            if (s.aggregate() == null || s.results().size() < 2) {
                continue;
            }
            double span = s.aggregate().seconds() * 1000;
            double skew = s.aggregate().maxAbsSkewMillis();
            if (span > 0 && skew > span * skewWarnFraction) {
                out.add(f("Start skew in step %s was %.1f ms, %.0f%% of the step's %.0f ms: its concurrent figures are not to be trusted.",
                        s.id(), skew, skew / span * 100, span));
            }
        }
        return out;
    }

    static String num(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}

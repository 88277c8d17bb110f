package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.Fairness;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.ScalingPoint;
import lockstep.coordinator.model.Stats;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/**
 * Every figure of the analysis, computed from a run's measured steps only: per plan step the repeat
 * statistics, the overlap window, efficiencies against the solo steps and fairness; the scaling
 * curve over node counts; then the verdict ({@link Verdicts}).
 */
public final class RunAnalyzer {
  private RunAnalyzer() {}

  /** The run with its analysis (re)computed from its steps. */
  public static RunRecord analysed(RunRecord run) {
    return run.withAnalysis(analyse(run));
  }

  public static Analysis analyse(RunRecord run) {
    boolean bytesUnit = run.bytesUnit();
    Map<String, List<StepRecord>> groups = new LinkedHashMap<>();
    for (StepRecord s : run.steps()) {
      groups.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s);
    }
    List<OverlapWindow> windows = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      if (s.ok()) {
        OverlapWindow w = OverlapWindows.of(s, bytesUnit);
        if (w != null) {
          windows.add(w);
        }
      }
    }
    Map<String, Double> solos = soloMeans(run);
    List<StepSummary> steps = new ArrayList<>();
    for (var g : groups.entrySet()) {
      steps.add(summarise(g.getKey(), g.getValue(), solos, windows, run.skewWarnFraction()));
    }
    Optional<StepSummary> concurrent = concurrentStep(steps);
    List<NodeScaling> nodes = new ArrayList<>();
    for (AgentRecord a : run.agents()) {
      Double solo = solos.get(a.node());
      Double conc =
          concurrent.flatMap(c -> nodeIn(c, a.node())).map(n -> n.throughput().mean()).orElse(null);
      nodes.add(
          new NodeScaling(
              a.node(), solo, conc, solo != null && conc != null && solo > 0 ? conc / solo : null));
    }
    boolean allSolos =
        !run.agents().isEmpty() && run.agents().stream().allMatch(a -> solos.containsKey(a.node()));
    Double sumSolos =
        allSolos ? run.agents().stream().mapToDouble(a -> solos.get(a.node())).sum() : null;
    Double concSum =
        concurrent.map(c -> c.aggregate() == null ? null : c.aggregate().mean()).orElse(null);
    Double concAgg = concurrent.flatMap(c -> concurrentSpanThroughput(run, c.group())).orElse(null);
    Double concOverlap =
        concurrent
            .map(c -> c.overlapAggregate() == null ? null : c.overlapAggregate().mean())
            .orElse(null);
    Double aggEff = concurrent.map(StepSummary::aggregateEfficiency).orElse(null);
    Double meanEff = concurrent.map(StepSummary::meanNodeEfficiency).orElse(null);
    Fairness fairness = concurrent.map(StepSummary::fairness).orElse(null);
    Double maxSkew =
        run.steps().stream()
            .filter(s -> s.aggregate() != null)
            .map(s -> s.aggregate().maxAbsSkewMillis())
            .max(Double::compare)
            .orElse(null);
    List<ScalingPoint> scaling = scalingCurve(steps, solos);
    List<String> envDiffs = EnvironmentDiff.of(run.agents());
    List<FaultEffect> faultEffects = FaultEffects.of(run);
    RunFigures figures =
        new RunFigures(
            nodes,
            sumSolos,
            concSum,
            concAgg,
            aggEff,
            meanEff,
            maxSkew,
            steps,
            scaling,
            windows,
            fairness,
            concOverlap,
            envDiffs,
            faultEffects);
    List<Finding> found = new ArrayList<>(Verdicts.of(run, figures));
    found.addAll(Bottlenecks.of(run));
    found.addAll(FaultEffects.findings(run, faultEffects));
    return figures.analysis(Headlines.order(run, found));
  }

  /**
   * Each node's mean solo throughput: its "solo-NODE" step, else a one-node ramp step that ran it.
   */
  static Map<String, Double> soloMeans(RunRecord run) {
    Map<String, List<Double>> solo = oneNodeThroughputs(run, "solo");
    oneNodeThroughputs(run, "ramp").forEach(solo::putIfAbsent);
    Map<String, Double> out = new LinkedHashMap<>();
    solo.forEach((n, v) -> out.put(n, Stats.of(v).mean()));
    return out;
  }

  private static Map<String, List<Double>> oneNodeThroughputs(RunRecord run, String kind) {
    Map<String, List<Double>> values = new LinkedHashMap<>();
    for (StepRecord s : run.steps()) {
      if (s.ok() && kind.equals(s.kind()) && s.results().size() == 1) {
        values
            .computeIfAbsent(s.results().get(0).node(), k -> new ArrayList<>())
            .add(s.results().get(0).throughput());
      }
    }
    return values;
  }

  static StepSummary summarise(
      String group,
      List<StepRecord> records,
      Map<String, Double> solos,
      List<OverlapWindow> windows,
      double skewWarnFraction) {
    StepRecord first = records.get(0);
    List<StepRecord> ok = records.stream().filter(StepRecord::ok).toList();
    List<NodeStepStats> perNode = new ArrayList<>();
    Map<String, Double> nodeMeans = new LinkedHashMap<>();
    for (String node : first.nodes()) {
      List<NodeResult> rs =
          ok.stream().map(s -> nodeIn(s, node)).flatMap(Optional::stream).toList();
      if (rs.isEmpty()) {
        continue;
      }
      Stats tp = Stats.of(rs.stream().map(NodeResult::throughput).toList());
      List<Double> inWindow =
          windows.stream()
              .filter(w -> w.group().equals(group) && w.exists())
              .map(w -> w.windowByNode().get(node))
              .filter(Objects::nonNull)
              .toList();
      Double solo = solos.get(node);
      Double eff = solo != null && solo > 0 ? tp.mean() / solo : null;
      perNode.add(
          new NodeStepStats(
              node,
              tp,
              Stats.of(inWindow),
              eff,
              Latency.merged(rs.stream().map(NodeResult::histogram).toList()),
              rs.stream().mapToDouble(r -> Math.abs(r.startSkewMillis())).max().orElse(0),
              rs.stream().mapToLong(NodeResult::coherenceErrors).sum()));
      nodeMeans.put(node, tp.mean());
    }
    Stats aggregate =
        Stats.of(
            ok.stream()
                .filter(s -> s.aggregate() != null)
                .map(s -> s.aggregate().sumOfNodes())
                .toList());
    List<OverlapWindow> mine =
        windows.stream().filter(w -> w.group().equals(group) && w.exists()).toList();
    Stats overlapAgg = Stats.of(mine.stream().map(OverlapWindow::windowAggregate).toList());
    Stats overlapSecs = Stats.of(mine.stream().map(OverlapWindow::seconds).toList());
    boolean haveSolos =
        !perNode.isEmpty() && perNode.stream().allMatch(n -> solos.containsKey(n.node()));
    double soloSum = haveSolos ? perNode.stream().mapToDouble(n -> solos.get(n.node())).sum() : 0;
    Double aggEff =
        haveSolos && aggregate != null && soloSum > 0 ? aggregate.mean() / soloSum : null;
    List<Double> effs =
        perNode.stream().map(NodeStepStats::efficiency).filter(Objects::nonNull).toList();
    Double meanEff =
        haveSolos && !effs.isEmpty()
            ? effs.stream().mapToDouble(Double::doubleValue).average().orElse(0)
            : null;
    double maxSkew = 0;
    boolean skewTooLarge = false;
    for (StepRecord s : ok) {
      if (s.aggregate() == null) {
        continue;
      }
      maxSkew = Math.max(maxSkew, s.aggregate().maxAbsSkewMillis());
      skewTooLarge |= s.results().size() > 1 && skewTooLarge(s, skewWarnFraction);
    }
    return new StepSummary(
        group,
        first.kind(),
        first.nodes(),
        records.size(),
        ok.size(),
        List.copyOf(perNode),
        aggregate,
        overlapAgg,
        overlapSecs,
        aggEff,
        meanEff,
        FairnessIndex.of(nodeMeans),
        maxSkew,
        skewTooLarge);
  }

  /** Max start skew above the threshold fraction of the step's span. */
  /**
   * The step's start skew, or the clock uncertainty it is known within, is above {@code fraction}
   * of the step's span: either way the start cannot be shown simultaneous.
   */
  public static boolean skewTooLarge(StepRecord s, double fraction) {
    double spanMillis = s.aggregate().seconds() * 1000;
    return spanMillis > 0
        && (s.aggregate().maxAbsSkewMillis() > spanMillis * fraction
            || maxClockUncertaintyMillis(s) > spanMillis * fraction);
  }

  /**
   * The largest clock uncertainty of the step's nodes (ms): every skew of the step is good to
   * within it.
   */
  public static double maxClockUncertaintyMillis(StepRecord s) {
    return s.results().stream().mapToDouble(NodeResult::clockUncertaintyMillis).max().orElse(0);
  }

  /** The step that runs every node at once: "all", else the largest multi-node ramp step. */
  static Optional<StepSummary> concurrentStep(List<StepSummary> steps) {
    return StepSummary.concurrent(steps);
  }

  private static Optional<Double> concurrentSpanThroughput(RunRecord run, String group) {
    List<Double> v =
        run.steps().stream()
            .filter(s -> s.group().equals(group) && s.ok() && s.aggregate() != null)
            .map(s -> s.aggregate().throughput())
            .toList();
    return v.isEmpty() ? Optional.empty() : Optional.of(Stats.of(v).mean());
  }

  /** Aggregate over node counts: one point per multi-node step, plus 1 node from the solo mean. */
  static List<ScalingPoint> scalingCurve(List<StepSummary> steps, Map<String, Double> solos) {
    Map<Integer, ScalingPoint> byCount = new TreeMap<>();
    List<StepSummary> soloSteps =
        steps.stream().filter(s -> "solo".equals(s.kind()) && s.aggregate() != null).toList();
    if (!soloSteps.isEmpty()) {
      double mean = soloSteps.stream().mapToDouble(s -> s.aggregate().mean()).average().orElse(0);
      byCount.put(1, new ScalingPoint(1, "solo", mean, null, mean, 1.0, mean));
    }
    for (StepSummary s : steps) {
      if ("solo".equals(s.kind()) || s.aggregate() == null) {
        continue;
      }
      int k = s.nodes().size();
      boolean haveSolos = s.nodes().stream().allMatch(solos::containsKey);
      Double ideal = haveSolos ? s.nodes().stream().mapToDouble(solos::get).sum() : null;
      double agg = s.aggregate().mean();
      ScalingPoint p =
          new ScalingPoint(
              k,
              s.group(),
              agg,
              s.overlapAggregate() == null ? null : s.overlapAggregate().mean(),
              ideal,
              ideal == null || ideal == 0 ? null : agg / ideal,
              agg / k);
      if (!byCount.containsKey(k) || "all".equals(s.kind())) {
        byCount.put(k, p);
      }
    }
    return List.copyOf(byCount.values());
  }

  static Optional<NodeResult> nodeIn(StepRecord s, String node) {
    return s.results().stream().filter(r -> r.node().equals(node)).findFirst();
  }

  static Optional<NodeStepStats> nodeIn(StepSummary s, String node) {
    return s.perNode().stream().filter(r -> r.node().equals(node)).findFirst();
  }
}

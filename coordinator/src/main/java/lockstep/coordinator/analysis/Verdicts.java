package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import lockstep.common.WorkloadField;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/**
 * The verdict in plain words, from the analysis figures: what makes the run invalid first, then
 * scaling (efficiency, aggregate), rate limit, outliers, start skew, overlap, noise, environment.
 */
public final class Verdicts {
  /** Mean per-node efficiency at or above this: "the nodes scale well". */
  static final double SCALES_WELL = 0.9;

  /** Mean per-node efficiency in this band, with two or more nodes: "halved". */
  static final Band HALVED = new Band(0.42, 0.58);

  /**
   * Per-node lock rates within this spread (max-min over median), alone and together: "looks like a
   * rate limit".
   */
  static final double FLAT_SPREAD = 0.10;

  /** A lock rate between these shares of the cluster's rate limit is pinned at it. */
  static final Band PINNED = new Band(0.5, 1.15);

  /** A node whose throughput is this far from the median of the others is an outlier. */
  static final double OUTLIER = 0.25;

  /** Overlap-window aggregate differing this much from the whole-run one is reported. */
  static final double OVERLAP_DIFFERS = 0.10;

  /** Repeats varying more than this (coefficient of variation) are reported. */
  static final double NOISY_REPEATS = 0.20;

  private Verdicts() {}

  /** The figures from {@code low} to {@code high}, both included. */
  record Band(double low, double high) {
    boolean contains(double x) {
      return x >= low && x <= high;
    }
  }

  static List<Finding> of(RunRecord run, RunFigures a) {
    List<Finding> out = new ArrayList<>();
    String what = run.kind() == null ? "throughput" : run.kind().measure();
    String unit = run.unit();
    coherence(run, out);
    nodeLocalLocks(run, out);
    if (!run.errors().isEmpty()) {
      out.add(
          new Finding(
              FindingCode.RUN_FAILED, Severity.INVALID, "The run failed: " + run.errors().get(0)));
    }
    efficiency(a, what, unit, out);
    aggregate(run, a, unit, out);
    rateLimit(run, a, unit, out);
    outliers(run, a, unit, out);
    skew(run, out);
    overlap(a, unit, out);
    noisyRepeats(a, out);
    NoiseVerdicts.add(run, a, out);
    singleMachine(run, out);
    a.environmentDifferences()
        .forEach(
            d ->
                out.add(
                    new Finding(
                        FindingCode.ENVIRONMENT,
                        Severity.WARNING,
                        "Nodes are not configured alike: " + d + ".")));
    out.sort(Comparator.comparingInt(f -> rank(f.severity())));
    return List.copyOf(out);
  }

  private static int rank(Severity severity) {
    return severity == Severity.INVALID ? 0 : 1;
  }

  private static void coherence(RunRecord run, List<Finding> out) {
    for (StepRecord s : run.steps()) {
      List<String> late = lateToTheRing(run, s);
      long errors = s.results().stream().mapToLong(NodeResult::coherenceErrors).sum();
      if (errors > 0 && !late.isEmpty()) {
        // The check assumes every participant is in the ring while the window lasts: before a
        // late one joins, the others see their own increments only. Those are not the file
        // system's errors, and whether it kept the nodes coherent is not known.
        out.add(
            new Finding(
                FindingCode.COHERENCE_INCONCLUSIVE,
                Severity.WARNING,
                f(
                    "Coherence not checked in step %s: %s joined the ring after the warm-up"
                        + " (%d ms), so the %d increment(s) that did not match may be the ring"
                        + " running without it, not the file system; try a longer warmup.",
                    s.id(),
                    String.join(", ", late),
                    run.kind().warmUpMillis(run.workload()),
                    errors),
                s.id()));
        continue;
      }
      for (NodeResult n : s.results()) {
        if (n.coherenceErrors() > 0) {
          out.add(
              new Finding(
                  FindingCode.COHERENCE,
                  Severity.INVALID,
                  f(
                      "INVALID RUN: node %s saw %d coherence error(s) in step %s (a read did not"
                          + " see what another node had written): the file system did not keep the"
                          + " nodes coherent, so no figure of this run can be trusted.%s",
                      n.node(),
                      n.coherenceErrors(),
                      s.id(),
                      FileSystems.nodeLocalLocks(run).map(w -> " Cause: " + w).orElse(""))));
        }
      }
    }
  }

  /**
   * The nodes of a step (more than one) of a workload that warms up (ping-pong's ring) whose first
   * lock came after the warm-up: the ring was not whole for part of the measured window. Start skew
   * against the warm-up, as the worker counts its window from the instant.
   */
  static List<String> lateToTheRing(RunRecord run, StepRecord s) {
    WorkloadKind<?> kind = run.kind();
    if (kind == null || !kind.warmsUp() || s.results().size() < 2) {
      return List.of();
    }
    long warmUpMillis = kind.warmUpMillis(run.workload());
    return s.results().stream()
        .filter(n -> n.startSkewMillis() > warmUpMillis)
        .map(n -> f("node %s %.0f ms late", n.node(), n.startSkewMillis()))
        .toList();
  }

  /**
   * Locks that cannot contend across nodes (OCFS2 on the o2cb stack, NFS's local_lock or nolock): a
   * lock workload's figures across nodes then measure each node alone, whatever they say.
   */
  private static void nodeLocalLocks(RunRecord run, List<Finding> out) {
    Optional<String> why = FileSystems.nodeLocalLocks(run);
    if (why.isEmpty() || run.steps().stream().noneMatch(s -> s.nodes().size() > 1)) {
      return;
    }
    out.add(
        new Finding(
            FindingCode.NODE_LOCAL_LOCKS,
            Severity.INVALID,
            "INVALID RUN: the nodes' "
                + WorkloadField.wordOf(run.lockKind().getValueDescriptor())
                + " locks never contended with each other: "
                + why.get()
                + " A lock figure across nodes here measures each node alone."));
  }

  private static void efficiency(RunFigures a, String what, String unit, List<Finding> out) {
    Double meanEff = a.meanNodeEfficiency();
    if (meanEff == null) {
      if (a.concurrentSumOfNodes() != null) {
        out.add(
            new Finding(
                FindingCode.TOGETHER,
                Severity.INFO,
                f(
                    "All nodes together: %s %s in total (no solo steps to compare with).",
                    num(a.concurrentSumOfNodes()), unit)));
      }
      return;
    }
    List<NodeScaling> nodes = a.nodes().stream().filter(n -> n.efficiency() != null).toList();
    FindingCode code = scaling(meanEff, nodes.size());
    Severity severity =
        code == FindingCode.HALVED || meanEff < SCALES_WELL * 0.8
            ? Severity.WARNING
            : Severity.INFO;
    double min = nodes.stream().mapToDouble(NodeScaling::efficiency).min().orElse(0);
    double max = nodes.stream().mapToDouble(NodeScaling::efficiency).max().orElse(0);
    String range = nodes.size() > 1 ? f(" (%.2fx to %.2fx)", min, max) : "";
    String kept =
        f("Running together, each node kept %.2fx of its solo %s%s", meanEff, what, range);
    String loss = f("scaling loss %.0f%%", (1 - meanEff) * 100);
    String text =
        switch (code) {
          case SCALES_WELL -> kept + ": the nodes scale well.";
          case HALVED -> kept + ": per-node " + what + " roughly halved (" + loss + ").";
          default -> kept + " (" + loss + ").";
        };
    out.add(new Finding(code, severity, text));
  }

  /**
   * How the nodes scaled, from their mean efficiency (together / alone) over {@code nodes} nodes:
   * scales well, halved (two or more nodes), or a scaling loss.
   */
  static FindingCode scaling(double meanEfficiency, int nodes) {
    if (meanEfficiency >= SCALES_WELL) {
      return FindingCode.SCALES_WELL;
    }
    return nodes >= 2 && HALVED.contains(meanEfficiency)
        ? FindingCode.HALVED
        : FindingCode.SCALING_LOSS;
  }

  private static void aggregate(RunRecord run, RunFigures a, String unit, List<Finding> out) {
    int n = (int) a.nodes().stream().filter(x -> x.concurrent() != null).count();
    if (a.aggregateEfficiency() == null
        || a.sumOfSolos() == null
        || a.concurrentSumOfNodes() == null
        || n < 2) {
      return;
    }
    double eff = a.aggregateEfficiency();
    out.add(
        new Finding(
            FindingCode.AGGREGATE,
            Severity.INFO,
            f(
                "All %d nodes together reached %s %s, %.2fx the sum of their solo figures (%s %s).",
                n, num(a.concurrentSumOfNodes()), unit, eff, num(a.sumOfSolos()), unit)));
    if (eff > 0 && eff < 1.15 / n) {
      out.add(
          new Finding(
              FindingCode.AGGREGATE_FLAT,
              Severity.WARNING,
              "The aggregate did not grow with more nodes: the nodes share one bottleneck"
                  + (FileSystems.allLocal(run)
                      ? " (the one machine's disk, memory or CPUs: a local file system has no"
                          + " cluster lock manager)."
                      : run.takesLocks()
                          ? " (" + FileSystems.lockManager(run) + ", or a rate limit)."
                          : " (shared storage or a cluster-wide lock).")));
    }
  }

  /**
   * A lock rate pinned at the rate limit the cluster reports (dlm_controld's plock_rate_limit), or
   * equal on every node alone and together: a limiter, not contention. Never on a local file
   * system, which has neither a lock manager nor a limit.
   */
  private static void rateLimit(RunRecord run, RunFigures a, String unit, List<Finding> out) {
    if (!run.takesLocks() || FileSystems.allLocal(run)) {
      return;
    }
    List<Double> rates = new ArrayList<>();
    a.nodes()
        .forEach(
            n -> {
              if (n.solo() != null) {
                rates.add(n.solo());
              }
              if (n.concurrent() != null) {
                rates.add(n.concurrent());
              }
            });
    if (rates.isEmpty()) {
      return;
    }
    rates.sort(Double::compare);
    double median = rates.get(rates.size() / 2);
    double highest = rates.get(rates.size() - 1);
    Optional<RateLimits> limit = RateLimits.of(run).filter(l -> l.value() > 0);
    if (limit.isPresent()
        && median >= PINNED.low() * limit.get().value()
        && highest <= PINNED.high() * limit.get().value()) {
      out.add(
          new Finding(
              FindingCode.RATE_LIMIT,
              Severity.WARNING,
              f(
                  "Rate limit: the lock rate is pinned at the cluster's limit (%s): about %s %s"
                      + " per node (%s .. %s, alone and together), so the lock manager, not"
                      + " contention, sets this figure.%s Raise it (dlm_tool set_config"
                      + " plock_rate_limit=N on every node, 0 for none) to see what the file system"
                      + " can do.",
                  limit.get().words(),
                  num(median),
                  unit,
                  num(rates.get(0)),
                  num(highest),
                  slowestLock(run))));
      return;
    }
    // alone and together: a ring's nodes (ping-pong) all go at one pace together by design, so
    // together-only figures say nothing of a limiter
    boolean aloneAndTogether =
        a.nodes().stream().anyMatch(n -> n.solo() != null)
            && a.nodes().stream().anyMatch(n -> n.concurrent() != null);
    double spread = median <= 0 ? 1 : (highest - rates.get(0)) / median;
    if (aloneAndTogether && spread <= FLAT_SPREAD) {
      String known =
          RateLimits.of(run)
              .map(
                  l ->
                      l.value() > 0
                          ? " The cluster's " + l.words() + ", and the rate is not at it."
                          : " The cluster's "
                              + l.words()
                              + " (no limit), so it is not that"
                              + " limit.")
              .orElse(
                  RateLimits.applies(run) && FileSystems.lockManager(run).contains("DLM")
                      ? " Check the lock manager's rate limit (dlm_controld's plock_rate_limit:"
                          + " dlm_tool dump_config)."
                      : "");
      out.add(
          new Finding(
              FindingCode.RATE_LIMIT,
              Severity.WARNING,
              f(
                  "The lock rate is flat at about %s %s on every node, alone and together "
                      + "(within %.0f%%): that looks like a rate limit, not contention.%s",
                  num(median), unit, spread * 100, known)));
    }
  }

  /** " The slowest lock took 1.0 s ..." when the worst wait looks like dlm_controld's pause. */
  private static String slowestLock(RunRecord run) {
    double worstMillis =
        run.steps().stream()
            .flatMap(s -> s.results().stream())
            .filter(n -> n.latency() != null)
            .mapToDouble(n -> n.latency().maxMicros() / 1000.0)
            .max()
            .orElse(0);
    return worstMillis >= 900
        ? f(
            " The slowest lock took %.1f s: dlm_controld stops taking lock requests for the rest of"
                + " the second once the limit is reached.",
            worstMillis / 1000)
        : "";
  }

  private static void outliers(RunRecord run, RunFigures a, String unit, List<Finding> out) {
    for (StepSummary s : a.steps()) {
      if (s.perNode().size() >= 3) {
        for (NodeStepStats n : s.perNode()) {
          double median = median(s.perNode().stream().map(o -> o.throughput().mean()).toList());
          double dev = median == 0 ? 0 : (n.throughput().mean() - median) / median;
          if (Math.abs(dev) > OUTLIER) {
            out.add(
                new Finding(
                    FindingCode.OUTLIER,
                    Severity.WARNING,
                    f(
                        "Node %s is an outlier in step %s: %s %s, %.0f%% %s than the median node"
                            + " (%s).",
                        n.node(),
                        s.group(),
                        num(n.throughput().mean()),
                        unit,
                        Math.abs(dev) * 100,
                        dev < 0 ? "lower" : "higher",
                        num(median)),
                    s.group()));
          }
        }
      } else if (s.perNode().size() == 2
          && s.fairness() != null
          && s.fairness().minOverMax() < 1 - OUTLIER) {
        out.add(
            new Finding(
                FindingCode.OUTLIER,
                Severity.WARNING,
                f(
                    "Step %s was uneven: node %s got %.0f%% of node %s's %s (Jain's fairness index"
                        + " %.2f).",
                    s.group(),
                    s.fairness().slowest(),
                    s.fairness().minOverMax() * 100,
                    s.fairness().fastest(),
                    unit,
                    s.fairness().jainIndex()),
                s.group()));
      }
    }
    List<NodeScaling> solos = a.nodes().stream().filter(n -> n.solo() != null).toList();
    if (solos.size() >= 3) {
      for (NodeScaling n : solos) {
        double median = median(solos.stream().map(NodeScaling::solo).toList());
        double dev = median == 0 ? 0 : (n.solo() - median) / median;
        List<String> sameMachine = NoiseVerdicts.sameMachinePeers(run, n.node());
        if (Math.abs(dev) > OUTLIER && !sameMachine.isEmpty()) {
          out.add(
              new Finding(
                  FindingCode.SAME_MACHINE,
                  Severity.WARNING,
                  f(
                      "Node %s differs alone by %.0f%% from the median node (%s against %s %s), but"
                          + " it shares one machine (same hostname and boot) with %s: that is noise"
                          + " or warm-up of this run, not hardware; the solo figures are not yet"
                          + " trustworthy, try repeat: %d.",
                      n.node(),
                      Math.abs(dev) * 100,
                      num(n.solo()),
                      num(median),
                      unit,
                      String.join(", ", sameMachine),
                      NoiseVerdicts.suggestedRepeats(run))));
        } else if (Math.abs(dev) > OUTLIER) {
          out.add(
              new Finding(
                  FindingCode.OUTLIER_SOLO,
                  Severity.WARNING,
                  f(
                      "Node %s is an outlier even alone: %s %s solo, %.0f%% %s than the median node"
                          + " (%s); look at its hardware and settings.",
                      n.node(),
                      num(n.solo()),
                      unit,
                      Math.abs(dev) * 100,
                      dev < 0 ? "lower" : "higher",
                      num(median))));
        }
      }
    }
  }

  /** Every agent on one machine: together vs alone measures that machine. */
  private static void singleMachine(RunRecord run, List<Finding> out) {
    List<AgentRecord> agents = run.agents();
    if (agents.size() >= 2 && agents.stream().allMatch(x -> x.sameMachineAs(agents.get(0)))) {
      out.add(
          new Finding(
              FindingCode.SINGLE_MACHINE,
              Severity.INFO,
              f(
                  "All %d agents run on one machine (%s): they share its %s and CPUs, so alone vs"
                      + " together here measures that machine%s, not a cluster of nodes.",
                  agents.size(),
                  agents.get(0).hostname(),
                  FileSystems.allLocal(run) ? "disk, memory" : "network, memory",
                  FileSystems.allLocal(run)
                      ? " and its local file system (" + agents.get(0).fsType() + ")"
                      : "")));
    }
  }

  /** The median of the values (of all nodes, so one outlier cannot move it far). */
  static double median(List<Double> values) {
    List<Double> v = values.stream().sorted().toList();
    return v.size() % 2 == 1
        ? v.get(v.size() / 2)
        : (v.get(v.size() / 2 - 1) + v.get(v.size() / 2)) / 2;
  }

  private static void skew(RunRecord run, List<Finding> out) {
    for (StepRecord s : run.steps()) {
      if (s.aggregate() == null || s.results().size() < 2) {
        continue;
      }
      if (RunAnalyzer.skewTooLarge(s, run.skewWarnFraction())) {
        double span = s.aggregate().seconds() * 1000;
        double skew = s.aggregate().maxAbsSkewMillis();
        double uncertainty = RunAnalyzer.maxClockUncertaintyMillis(s);
        if (skew >= uncertainty) {
          out.add(
              new Finding(
                  FindingCode.START_SKEW,
                  Severity.WARNING,
                  f(
                      "Start skew in step %s was %.1f ± %.1f ms, %.0f%% of the step's %.0f ms"
                          + " (threshold %.0f%%, skew-warn-percent): its concurrent figures are not"
                          + " to be trusted.",
                      s.id(),
                      skew,
                      uncertainty,
                      skew / span * 100,
                      span,
                      run.skewWarnFraction() * 100),
                  s.id()));
        } else {
          out.add(
              new Finding(
                  FindingCode.START_SKEW,
                  Severity.WARNING,
                  f(
                      "Start skew in step %s is known only to ± %.1f ms (clock uncertainty), %.0f%%"
                          + " of the step's %.0f ms (threshold %.0f%%, skew-warn-percent): the"
                          + " start cannot be shown simultaneous, so its concurrent figures are not"
                          + " to be trusted.",
                      s.id(),
                      uncertainty,
                      uncertainty / span * 100,
                      span,
                      run.skewWarnFraction() * 100),
                  s.id()));
        }
      }
    }
  }

  private static void overlap(RunFigures a, String unit, List<Finding> out) {
    for (OverlapWindow w : a.windows()) {
      if (!w.exists()) {
        out.add(
            new Finding(
                FindingCode.NO_OVERLAP,
                Severity.WARNING,
                f(
                    "In step %s the nodes never ran at the same time "
                        + "(one finished before another began): it measured no concurrency.",
                    w.stepId()),
                w.stepId()));
        continue;
      }
      double diff =
          w.wholeAggregate() == 0
              ? 0
              : (w.windowAggregate() - w.wholeAggregate()) / w.wholeAggregate();
      if (Math.abs(diff) > OVERLAP_DIFFERS) {
        out.add(
            new Finding(
                FindingCode.OVERLAP,
                Severity.WARNING,
                f(
                    "In step %s all nodes ran together for only %.2f s of %.2f s; in that window"
                        + " the aggregate was %s %s, %.0f%% %s than the whole-run figure (%s): use"
                        + " the window figure.",
                    w.stepId(),
                    w.seconds(),
                    w.wholeSeconds(),
                    num(w.windowAggregate()),
                    unit,
                    Math.abs(diff) * 100,
                    diff < 0 ? "lower" : "higher",
                    num(w.wholeAggregate())),
                w.stepId()));
      }
    }
  }

  private static void noisyRepeats(RunFigures a, List<Finding> out) {
    for (StepSummary s : a.steps()) {
      if (s.aggregate() != null && s.aggregate().n() > 1 && s.aggregate().cv() > NOISY_REPEATS) {
        out.add(
            new Finding(
                FindingCode.NOISY,
                Severity.INFO,
                f(
                    "The %d repeats of step %s vary by %.0f%% (stddev/mean): "
                        + "more repeats or a longer workload would firm up its figures.",
                    s.aggregate().n(), s.group(), s.aggregate().cv() * 100),
                s.group()));
      }
    }
  }

  /** Thousands separators from 100 up, one decimal below. */
  public static String num(double v) {
    return v >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}

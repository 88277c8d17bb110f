package lockstep.coordinator.expect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.ExpectationStatus;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.NodeStepStats;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/**
 * Judges expectations on an analysed run record, from the figures the report shows: efficiencies
 * and throughputs from {@link Analysis} (solo and together as the analysis picks them), the start
 * skew and coherence counts from the steps, p99 latency from the together step's merged histograms.
 * A figure the run did not measure breaks its expectation; a run that failed or was interrupted
 * judges none (each is an error).
 */
public final class ExpectationJudge {
  /** Nodes named in one line when several break a per-node expectation. */
  static final int NODES_NAMED = 5;

  private ExpectationJudge() {}

  /** The run with every expectation's outcome in its record. */
  public static RunRecord judged(RunRecord run, List<Expectation> expectations) {
    return run.withExpectations(judge(expectations, run));
  }

  public static List<ExpectationOutcome> judge(List<Expectation> expectations, RunRecord run) {
    boolean judged = judgeable(run);
    List<ExpectationOutcome> out = new ArrayList<>();
    for (Expectation e : expectations) {
      out.add(judged ? judge(e, run) : notJudged(e, run));
    }
    return List.copyOf(out);
  }

  /** Whether the run's figures are judged: it finished (ok) or was collected from its agents. */
  public static boolean judgeable(RunRecord run) {
    return run.status() == RunStatus.OK || run.status() == RunStatus.COLLECTED;
  }

  /** How many of the run's expectations broke. */
  public static long broken(RunRecord run) {
    return run.expectations().stream().filter(ExpectationOutcome::broken).count();
  }

  private static ExpectationOutcome notJudged(Expectation e, RunRecord run) {
    return outcome(
        e,
        ExpectationStatus.ERROR,
        null,
        null,
        "expect "
            + e.name()
            + ": not judged: the run "
            + run.status()
            + " ("
            + firstError(run)
            + ")");
  }

  private static String firstError(RunRecord run) {
    if (run.errors().isEmpty()) {
      return "no figures";
    }
    return run.errors().get(0)
        + (run.errors().size() > 1 ? " and " + (run.errors().size() - 1) + " more" : "");
  }

  private record Reading(String node, Double value) {}

  /** What the run measured of a figure: one reading, or one per node, and words around it. */
  private record Measure(List<Reading> readings, String context, String missing) {
    static Measure of(Double value, String node, String context, String missing) {
      return new Measure(List.of(new Reading(node, value)), context, missing);
    }

    static Measure none(String missing) {
      return new Measure(List.of(), null, missing);
    }
  }

  private static ExpectationOutcome judge(Expectation e, RunRecord run) {
    Measure m = run.analysis() == null ? Measure.none("the run has no analysis") : measure(e, run);
    String head = "expect " + e.name() + ": ";
    if (m.readings().isEmpty()) {
      return outcome(e, ExpectationStatus.BROKEN, null, null, head + "not measured: " + m.missing);
    }
    if (!e.figure().eachNode()) {
      Reading r = m.readings().get(0);
      if (r.value() == null) {
        return outcome(
            e, ExpectationStatus.BROKEN, null, null, head + "not measured: " + m.missing());
      }
      boolean holds = e.holds(r.value());
      return outcome(
          e,
          holds ? ExpectationStatus.HELD : ExpectationStatus.BROKEN,
          r.value(),
          r.node(),
          head
              + "measured "
              + e.showMeasured(r.value())
              + (m.context() == null ? "" : " (" + m.context() + ")"));
    }
    return eachNode(e, m, head);
  }

  private static ExpectationOutcome eachNode(Expectation e, Measure m, String head) {
    List<Reading> all = m.readings();
    List<Reading> failing =
        all.stream().filter(r -> r.value() == null || !e.holds(r.value())).toList();
    List<Reading> pool = failing.isEmpty() ? all : failing;
    Reading worst =
        pool.stream()
            .filter(r -> r.value() != null)
            .reduce((a, b) -> worse(e, a, b))
            .orElse(pool.get(0));
    String measured =
        worst.value() == null
            ? "not measured on " + worst.node()
            : "measured " + e.showMeasured(worst.value()) + " on " + worst.node();
    String context;
    if (failing.isEmpty()) {
      context =
          all.size() == 1
              ? "the only node"
              : e.comparison() == Comparison.EQUAL
                  ? "so is every one of " + all.size() + " nodes"
                  : (e.comparison().lowIsWorse() ? "the lowest" : "the highest")
                      + " of "
                      + all.size()
                      + " nodes";
    } else {
      List<String> named =
          failing.stream()
              .limit(NODES_NAMED)
              .map(r -> r.node() + " " + (r.value() == null ? "not measured" : e.show(r.value())))
              .toList();
      context =
          failing.size()
              + " of "
              + all.size()
              + (all.size() == 1 ? " node" : " nodes")
              + " break it: "
              + String.join(", ", named)
              + (failing.size() > NODES_NAMED
                  ? " and " + (failing.size() - NODES_NAMED) + " more"
                  : "");
    }
    return outcome(
        e,
        failing.isEmpty() ? ExpectationStatus.HELD : ExpectationStatus.BROKEN,
        worst.value(),
        worst.node(),
        head + measured + " (" + context + ")");
  }

  private static Reading worse(Expectation e, Reading a, Reading b) {
    if (e.comparison() == Comparison.EQUAL) {
      return Math.abs(b.value() - e.bound()) > Math.abs(a.value() - e.bound()) ? b : a;
    }
    boolean bWorse = e.comparison().lowIsWorse() ? b.value() < a.value() : b.value() > a.value();
    return bWorse ? b : a;
  }

  private static ExpectationOutcome outcome(
      Expectation e, ExpectationStatus status, Double measured, String node, String message) {
    return new ExpectationOutcome(
        e.figure().key(),
        e.expression(),
        e.name(),
        status,
        measured,
        e.bound(),
        e.unit(),
        node,
        message);
  }

  private static Measure measure(Expectation e, RunRecord run) {
    Analysis a = run.analysis();
    Optional<StepSummary> together = StepSummary.concurrent(a.steps());
    return switch (e.figure()) {
      case EFFICIENCY -> Measure.of(a.aggregateEfficiency(), null, lowest(e, a), noEfficiency(a));
      case NODE_EFFICIENCY ->
          perNode(a.nodes().stream().map(n -> new Reading(n.node(), n.efficiency())).toList());
      case MIN_NODE_EFFICIENCY -> minEfficiency(a);
      case THROUGHPUT ->
          Measure.of(
              a.concurrentSumOfNodes(),
              null,
              together
                  .map(s -> "step " + s.group() + ", " + nodes(s.nodes().size()) + ", sum of nodes")
                  .orElse(null),
              "no step with the nodes together finished");
      case NODE_THROUGHPUT ->
          perNode(a.nodes().stream().map(n -> new Reading(n.node(), n.concurrent())).toList());
      case SOLO_THROUGHPUT ->
          perNode(a.nodes().stream().map(n -> new Reading(n.node(), n.solo())).toList());
      case SKEW -> skew(e, run);
      case P99 -> together.map(s -> p99(run, s)).orElse(Measure.none(noTogether()));
      case NODE_P99 -> together.map(ExpectationJudge::nodeP99).orElse(Measure.none(noTogether()));
      case COHERENCE_ERRORS -> coherence(run);
    };
  }

  private static Measure perNode(List<Reading> readings) {
    return readings.isEmpty()
        ? Measure.none("the run has no node")
        : new Measure(readings, null, "not measured");
  }

  private static String noTogether() {
    return "no step with the nodes together finished";
  }

  private static String noEfficiency(Analysis a) {
    if (a.sumOfSolos() == null) {
      return "not every node has a solo figure (a solo step failed or did not run)";
    }
    if (a.concurrentSumOfNodes() == null) {
      return noTogether();
    }
    return "the solo figures are 0";
  }

  private static String lowest(Expectation e, Analysis a) {
    return a.nodes().stream()
        .filter(n -> n.efficiency() != null)
        .min((x, y) -> Double.compare(x.efficiency(), y.efficiency()))
        .map(n -> "lowest " + n.node() + " " + e.show(n.efficiency()))
        .orElse(null);
  }

  private static Measure minEfficiency(Analysis a) {
    Optional<NodeScaling> missing =
        a.nodes().stream().filter(n -> n.efficiency() == null).findAny();
    if (a.nodes().isEmpty() || missing.isPresent()) {
      return Measure.none(
          missing
              .map(n -> "node " + n.node() + " has no efficiency (" + noEfficiency(a) + ")")
              .orElse("the run has no node"));
    }
    NodeScaling min =
        a.nodes().stream().min((x, y) -> Double.compare(x.efficiency(), y.efficiency())).get();
    return Measure.of(
        min.efficiency(),
        min.node(),
        min.node() + ", the lowest of " + nodes(a.nodes().size()),
        null);
  }

  private static Measure skew(Expectation e, RunRecord run) {
    NodeResult worst = null;
    StepRecord where = null;
    for (StepRecord s : run.steps()) {
      if (s.aggregate() == null) {
        continue;
      }
      for (NodeResult r : s.results()) {
        if (worst == null || Math.abs(r.startSkewMillis()) > Math.abs(worst.startSkewMillis())) {
          worst = r;
          where = s;
        }
      }
    }
    if (worst == null) {
      return Measure.none("no step ran");
    }
    return Measure.of(
        Math.abs(worst.startSkewMillis()),
        worst.node(),
        worst.node()
            + " in step "
            + where.id()
            + ", ± "
            + e.show(worst.clockUncertaintyMillis())
            + " clock uncertainty",
        null);
  }

  private static Measure p99(RunRecord run, StepSummary together) {
    List<StepRecord> records =
        run.steps().stream()
            .filter(s -> s.group().equals(together.group()) && s.ok() && s.aggregate() != null)
            .toList();
    List<String> histograms =
        records.stream()
            .map(s -> s.aggregate().histogram())
            .filter(h -> h != null && !h.isEmpty())
            .toList();
    Latency latency =
        !histograms.isEmpty()
            ? Latency.merged(histograms)
            : records.size() == 1 ? records.get(0).aggregate().latency() : null;
    if (latency == null || latency.count() == 0) {
      return Measure.none(
          "no latency was recorded in step " + together.group() + " (instrumentation: false?)");
    }
    return Measure.of(
        latency.p99Micros() / 1000,
        null,
        "step "
            + together.group()
            + ", "
            + String.format(Locale.ROOT, "%,d", latency.count())
            + " operations of "
            + nodes(together.nodes().size()),
        null);
  }

  private static Measure nodeP99(StepSummary together) {
    List<Reading> readings = new ArrayList<>();
    for (NodeStepStats n : together.perNode()) {
      Latency l = n.latency();
      readings.add(
          new Reading(n.node(), l == null || l.count() == 0 ? null : l.p99Micros() / 1000));
    }
    return readings.isEmpty()
        ? Measure.none("step " + together.group() + " has no node")
        : new Measure(readings, null, "no latency recorded");
  }

  private static Measure coherence(RunRecord run) {
    long checks = 0;
    long errors = 0;
    List<String> nodes = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      for (NodeResult r : s.results()) {
        checks += r.coherenceChecks();
        errors += r.coherenceErrors();
        if (r.coherenceErrors() > 0) {
          nodes.add(r.node() + " " + r.coherenceErrors() + " in " + s.id());
        }
      }
    }
    if (checks == 0) {
      WorkloadKind<?> kind = run.kind();
      return Measure.none(
          "no coherence check was made"
              + (kind != null && kind.canCheckCoherence()
                  ? " (" + kind.name() + " checks " + kind.coherenceNote() + ")"
                  : ""));
    }
    String in = String.format(Locale.ROOT, "in %,d checks", checks);
    return Measure.of(
        (double) errors,
        null,
        nodes.isEmpty()
            ? in
            : in
                + ": "
                + String.join(", ", nodes.stream().limit(NODES_NAMED).toList())
                + (nodes.size() > NODES_NAMED
                    ? " and " + (nodes.size() - NODES_NAMED) + " more"
                    : ""),
        null);
  }

  private static String nodes(int n) {
    return n == 1 ? "1 node" : n + " nodes";
  }
}

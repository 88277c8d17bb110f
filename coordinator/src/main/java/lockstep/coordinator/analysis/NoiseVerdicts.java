package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.model.StepSummary;

/**
 * Verdicts that know noise: a figure is "not yet trustworthy" when its repeats disagree by more
 * than the effect the run reports, or when one run's time series is unsteady (a warm-up ramp or
 * interference), and nodes on one machine are never told apart by hardware.
 */
final class NoiseVerdicts {
  /**
   * A node's rate over the first quarter of its run differing this much from the rest: unsteady.
   */
  static final double UNSTEADY = 0.20;

  /** Fewer progress samples than this say too little about steadiness. */
  static final int MIN_SAMPLES = 8;

  private NoiseVerdicts() {}

  static void add(RunRecord run, RunFigures a, List<Finding> out) {
    repeatsVersusEffect(run, a, out);
    unsteadySeries(run, out);
  }

  /** The repeat count to suggest: at least 5, else twice the run's. */
  static int suggestedRepeats(RunRecord run) {
    return Math.max(5, 2 * run.repeat());
  }

  /**
   * Another agent of the run on the same machine (same hostname and boot id) as {@code node}, if
   * any.
   */
  static List<String> sameMachinePeers(RunRecord run, String node) {
    Optional<AgentRecord> self =
        run.agents().stream().filter(x -> x.node().equals(node)).findFirst();
    List<String> peers = new ArrayList<>();
    self.ifPresent(
        s ->
            run.agents().stream()
                .filter(o -> o != s && s.sameMachineAs(o))
                .forEach(o -> peers.add(o.node())));
    return peers;
  }

  private static void repeatsVersusEffect(RunRecord run, RunFigures a, List<Finding> out) {
    if (a.meanNodeEfficiency() == null) {
      return;
    }
    double effect = Math.abs(1 - a.meanNodeEfficiency());
    StepSummary noisiest = null;
    for (StepSummary s : a.steps()) {
      if (s.aggregate() != null
          && s.aggregate().n() > 1
          && (noisiest == null || s.aggregate().cv() > noisiest.aggregate().cv())) {
        noisiest = s;
      }
    }
    if (noisiest != null && noisiest.aggregate().cv() > effect) {
      out.add(
          new Finding(
              FindingCode.NOT_TRUSTWORTHY,
              Severity.WARNING,
              f(
                  "The %d repeats of step %s disagree by %.0f%% (stddev/mean), more than the effect"
                      + " reported (each node kept %.2fx of its solo figure, a %.0f%% difference):"
                      + " the figures are not yet trustworthy; try repeat: %d.",
                  noisiest.aggregate().n(),
                  noisiest.group(),
                  noisiest.aggregate().cv() * 100,
                  a.meanNodeEfficiency(),
                  effect * 100,
                  suggestedRepeats(run)),
              noisiest.group()));
    }
  }

  private static void unsteadySeries(RunRecord run, List<Finding> out) {
    for (StepRecord s : run.steps()) {
      if (s.faulted()) {
        continue; // the fault's stall is what the step measures, not noise
      }
      List<String> unsteady = new ArrayList<>();
      for (NodeResult n : s.results()) {
        OptionalDouble r = firstQuarterOverRest(n, s.intendedStartUnixNanos());
        if (r.isPresent() && Math.abs(r.getAsDouble() - 1) > UNSTEADY) {
          unsteady.add(f("%s %.0f%%", n.node(), r.getAsDouble() * 100));
        }
      }
      if (!unsteady.isEmpty()) {
        out.add(
            new Finding(
                FindingCode.UNSTEADY,
                Severity.WARNING,
                f(
                    "In step %s the rate was unsteady: over the first quarter of the run it was"
                        + " this share of the rest's (%s), a ramp or interference: that figure is"
                        + " not yet trustworthy; try repeat: %d or a longer workload.",
                    s.id(), String.join(", ", unsteady), suggestedRepeats(run)),
                s.id()));
      }
    }
  }

  /**
   * The node's rate over the first quarter of its run divided by its rate over the other three
   * quarters, from its progress samples (ops interpolated at the quarter); empty when the run has
   * fewer than {@link #MIN_SAMPLES} samples or no work. The run starts at the node's first counted
   * operation: a warm-up before it (ping-pong's ring) counts nothing and is no ramp.
   */
  static OptionalDouble firstQuarterOverRest(NodeResult n, long intendedStartUnixNanos) {
    List<Sample> series = n.series();
    if (series == null || series.size() < MIN_SAMPLES || n.seconds() <= 0 || n.ops() <= 0) {
      return OptionalDouble.empty();
    }
    double start =
        n.firstOpUnixNanos() > 0 && intendedStartUnixNanos > 0
            ? (n.firstOpUnixNanos() - intendedStartUnixNanos) / 1e9
            : n.startSkewMillis() / 1000;
    double quarter = start + n.seconds() / 4;
    double first = opsAt(series, quarter);
    double rest = n.ops() - first;
    if (first <= 0 || rest <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of((first / (n.seconds() / 4)) / (rest / (n.seconds() * 3 / 4)));
  }

  private static double opsAt(List<Sample> series, double t) {
    double prevT = 0;
    double prevOps = 0;
    for (Sample p : series) {
      if (p.t() >= t) {
        return p.t() == prevT
            ? p.ops()
            : prevOps + (p.ops() - prevOps) * (t - prevT) / (p.t() - prevT);
      }
      prevT = p.t();
      prevOps = p.ops();
    }
    return prevOps;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}

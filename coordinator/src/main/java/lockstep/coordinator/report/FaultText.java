package lockstep.coordinator.report;

import java.io.PrintStream;
import java.util.Locale;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/** The terminal's "Faults" section: what the lab did in each step, and what each survivor met. */
final class FaultText {
  private FaultText() {}

  static void print(RunRecord run, Analysis a, PrintStream out) {
    boolean any = run.steps().stream().anyMatch(s -> !s.faults().isEmpty());
    if (!any) {
      return;
    }
    out.printf("%nFaults (seconds since the step's start instant)%n");
    for (StepRecord s : run.steps()) {
      for (FaultRecord f : s.faults()) {
        out.printf("%-14s %s: %s%n", s.id(), f.fault().describe(), happened(s, f));
        if (f.recovery() != null) {
          out.printf("%-14s   after the step: %s%n", "", f.recovery());
        }
      }
      for (FaultEffect e : a.faultEffects()) {
        if (!e.step().equals(s.id())) {
          continue;
        }
        out.printf(
            Locale.ROOT,
            "%-14s   %-10s stalled %.1f s (%.1f .. %.1f)%s; %s before, %s during, %s after%n",
            "",
            e.survivor(),
            e.stallSeconds(),
            e.stallFromSeconds(),
            e.stallToSeconds(),
            !e.resumed()
                ? ", not back by the end"
                : e.backTo90Seconds() == null
                    ? ", never back to 90%"
                    : String.format(
                        Locale.ROOT, ", back to 90%% %.1f s later", e.backTo90Seconds()),
            Verdicts.num(e.rateBefore()),
            Verdicts.num(e.rateDuring()),
            Verdicts.num(e.rateAfter()) + " " + run.unit());
      }
    }
  }

  private static String happened(StepRecord s, FaultRecord f) {
    if (!f.happened()) {
      return "did not happen (" + f.error() + ")";
    }
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT, "carried out at %.3f s", f.beginSeconds(s.intendedStartUnixNanos())));
    if (f.endedUnixNanos() > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              ", ended at %.3f s",
              (f.endedUnixNanos() - s.intendedStartUnixNanos()) / 1e9));
    }
    b.append(
        f.victimLost()
            ? "; " + f.fault().node() + " lost to it, as planned"
            : "; " + f.fault().node() + " stayed reachable");
    if (f.ending() != null) {
      b.append("; ended: ").append(f.ending());
    }
    if (f.error() != null) {
      b.append("; ").append(f.error());
    }
    return b.toString();
  }
}

package lockstep.coordinator.report;

import java.util.Locale;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/**
 * A start skew is printed with the clock uncertainty it is good to within, everywhere: "0.120 ±
 * 0.045" (ms).
 */
public final class SkewText {
  private SkewText() {}

  public static String of(double skewMillis, double uncertaintyMillis) {
    return String.format(Locale.ROOT, "%.3f ± %.3f", skewMillis, uncertaintyMillis);
  }

  /** Signed, for one node's skew: "+0.120 ± 0.045". */
  public static String signed(double skewMillis, double uncertaintyMillis) {
    return String.format(Locale.ROOT, "%+.3f ± %.3f", skewMillis, uncertaintyMillis);
  }

  /**
   * The largest clock uncertainty (ms) over the repeats of one plan step ({@code group}), for one
   * node or, with {@code node} null, for every node; over the whole run with {@code group} null.
   */
  public static double maxUncertaintyMillis(RunRecord run, String group, String node) {
    double max = 0;
    for (StepRecord s : run.steps()) {
      if (group != null && !group.equals(s.group())) {
        continue;
      }
      for (NodeResult n : s.results()) {
        if (node == null || node.equals(n.node())) {
          max = Math.max(max, n.clockUncertaintyMillis());
        }
      }
    }
    return max;
  }
}

package lockstep.coordinator.report;

import java.util.Locale;
import lockstep.coordinator.model.Latency;

/**
 * Latency percentiles for tables, in µs; "-" when none was recorded (instrumentation: false, or no
 * operation).
 */
public final class LatencyText {
  private LatencyText() {}

  public static String p50(Latency l) {
    return recorded(l) ? String.format(Locale.ROOT, "%.1f", l.p50Micros()) : "-";
  }

  public static String p99(Latency l) {
    return recorded(l) ? String.format(Locale.ROOT, "%.1f", l.p99Micros()) : "-";
  }

  private static boolean recorded(Latency l) {
    return l != null && l.count() > 0;
  }
}

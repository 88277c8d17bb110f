package lockstep.coordinator.model;

import java.math.BigDecimal;

/**
 * One fault of a scenario ({@code faults: [{at: 5s, node: node2, action: kill}]}): at {@code
 * atMillis} after a step's start instant, on {@code node}; a freeze or partition ends {@code
 * forMillis} later (0 for a kill).
 */
public record Fault(long atMillis, String node, FaultAction action, long forMillis) {
  public Fault {
    if (action.lasts() != (forMillis > 0)) {
      throw new IllegalArgumentException(action + " with for " + forMillis + " ms");
    }
  }

  /** "kill node2 at 5 s", "freeze node1 at 20 s for 10 s". */
  public String describe() {
    String s = action + " " + node + " at " + seconds(atMillis);
    return action.lasts() ? s + " for " + seconds(forMillis) : s;
  }

  static String seconds(long millis) {
    return BigDecimal.valueOf(millis).movePointLeft(3).stripTrailingZeros().toPlainString() + " s";
  }
}

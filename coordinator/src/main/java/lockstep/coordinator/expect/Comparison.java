package lockstep.coordinator.expect;

/** The comparators an expectation may use; {@code ==} only for counts. */
public enum Comparison {
  AT_LEAST(">="),
  AT_MOST("<="),
  EQUAL("=="),
  ABOVE(">"),
  BELOW("<");

  private final String symbol;

  Comparison(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }

  /**
   * Whether {@code measured} satisfies the comparison. Figures are means and ratios of doubles, so
   * a difference within a billionth of the bound counts as equal: an efficiency of 0.6 computed as
   * 0.6000000000000001 holds "<= 0.6" and breaks "> 0.6".
   */
  public boolean holds(double measured, double bound) {
    double d = measured - bound;
    if (Math.abs(d) <= 1e-9 * Math.max(1, Math.abs(bound))) {
      d = 0;
    }
    return switch (this) {
      case AT_LEAST -> d >= 0;
      case AT_MOST -> d <= 0;
      case EQUAL -> d == 0;
      case ABOVE -> d > 0;
      case BELOW -> d < 0;
    };
  }

  /** Whether lower figures are the worse ones (a lower bound: >=, >). */
  boolean lowIsWorse() {
    return this == AT_LEAST || this == ABOVE;
  }

  /**
   * The comparator {@code text} starts with, or null; two-character comparators first, so ">=" is
   * never read as ">" and "=".
   */
  static Comparison startOf(String text) {
    for (Comparison c : values()) {
      if (text.startsWith(c.symbol)) {
        return c;
      }
    }
    return null;
  }
}

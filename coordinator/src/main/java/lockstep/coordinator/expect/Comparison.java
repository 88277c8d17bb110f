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

  public boolean holds(double measured, double bound) {
    return switch (this) {
      case AT_LEAST -> measured >= bound;
      case AT_MOST -> measured <= bound;
      case EQUAL -> measured == bound;
      case ABOVE -> measured > bound;
      case BELOW -> measured < bound;
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

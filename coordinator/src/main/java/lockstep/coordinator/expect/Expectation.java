package lockstep.coordinator.expect;

import java.util.Locale;

/**
 * One parsed expectation: a figure, a comparator and a bound, with how the bound was written so
 * that the measured figure is shown in the same unit.
 *
 * @param bound the bound in the figure's base unit: a ratio as a fraction, a duration in ms, a
 *     throughput in the run's unit, a count
 * @param expression the comparison as written: ">= 0.8", "<= 5ms"
 * @param boundText the bound as shown: "0.80", "80%", "5 ms", "150 MB/s"
 * @param scale shown value = base value x scale (100 for %, 1000 for us, 0.001 for s)
 * @param suffix after a shown value: "", "%", " ms", " MB/s"
 * @param decimals decimals of a shown measured figure
 * @param unit the base unit's name in run.json: "ratio", "ms", "errors", or the throughput unit
 */
public record Expectation(
    Figure figure,
    Comparison comparison,
    double bound,
    String expression,
    String boundText,
    double scale,
    String suffix,
    int decimals,
    String unit) {

  /** Decimals a measured figure may gain to show why it breaks a bound it looks equal to. */
  private static final int MAX_EXTRA_DECIMALS = 4;

  /** The figure and the comparison in one stable form: "efficiency >= 0.80". */
  public String name() {
    return figure.key() + " " + comparison.symbol() + " " + boundText;
  }

  public boolean holds(double measured) {
    return comparison.holds(measured, bound);
  }

  /** Significant digits a small figure keeps: 0.004354 s is "0.00435 s", not "0.004 s". */
  private static final int SIGNIFICANT = 3;

  private static final int MAX_DECIMALS = 6;

  /** A base-unit figure as this expectation shows it: "0.61", "7.032 ms", "1,939 locks/s". */
  public String show(double value) {
    return show(value, decimalsFor(value)) + suffix;
  }

  private int decimalsFor(double value) {
    double shown = Math.abs(value * scale);
    if (figure.quantity() == Figure.Quantity.COUNT || shown == 0 || shown >= 0.1) {
      return decimals;
    }
    int needed = SIGNIFICANT - 1 - (int) Math.floor(Math.log10(shown));
    return Math.max(decimals, Math.min(MAX_DECIMALS, needed));
  }

  /**
   * A measured figure shown so that it differs from the bound when it breaks it: 0.7996 against ">=
   * 0.80" is "0.7996", not "0.80".
   */
  String showMeasured(double value) {
    int d = decimalsFor(value);
    if (!holds(value)) {
      int most = d + MAX_EXTRA_DECIMALS;
      while (d < most && show(value, d).equals(show(bound, d))) {
        d++;
      }
    }
    return show(value, d) + suffix;
  }

  private String show(double value, int d) {
    boolean grouped = figure.quantity() == Figure.Quantity.COUNT || value * scale >= 10_000;
    return String.format(Locale.ROOT, grouped ? "%,." + d + "f" : "%." + d + "f", value * scale);
  }
}

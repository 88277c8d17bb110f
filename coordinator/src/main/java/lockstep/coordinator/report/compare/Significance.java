package lockstep.coordinator.report.compare;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Whether B's repeats of one figure differ from A's by more than their noise, with commons-math3.
 *
 * <p>Method: throughputs scale by factors, so each repeat's value is taken as its natural
 * logarithm; Welch's t-test (unequal variances, Welch-Satterthwaite degrees of freedom) compares
 * the mean logs of A and B, and the 95% confidence interval of the difference of mean logs, turned
 * back with exp, is the interval of the ratio B / A (of geometric means; for repeats that agree
 * within some percent it is within a fraction of that of the ratio of arithmetic means that compare
 * prints). The test and the interval are one computation: the interval excludes 1.00x exactly when
 * p < 0.05. "Different" is p < 0.05; otherwise the difference is within the noise, and, from the
 * same noise (the two sides' log variances pooled), the number of repeats on each side that would
 * tell the observed difference apart (two-sided 5% test, 80% power, t quantiles with 2n - 2 degrees
 * of freedom) is given.
 *
 * @param nA repeats on A's side (values > 0)
 * @param ratio B / A of the arithmetic means, as the rest of compare shows
 * @param low lower end of the 95% interval of B / A, NaN when it cannot be computed
 * @param high upper end
 * @param p two-sided Welch p-value, NaN when it cannot be computed
 * @param repeatsToSettle repeats on each side that would settle the difference seen, 0 when it is
 *     settled (or cannot be asked), -1 when more than {@link #MAX_REPEATS} would be needed
 */
public record Significance(
    int nA,
    int nB,
    double ratio,
    double low,
    double high,
    double p,
    Verdict verdict,
    int repeatsToSettle) {

  /** The level of the test and the interval. */
  public static final double ALPHA = 0.05;

  /** The power the repeat suggestion aims at. */
  public static final double POWER = 0.8;

  /** Beyond this many repeats a suggestion is not worth making. */
  public static final int MAX_REPEATS = 200;

  public enum Verdict {
    /** B / A is outside the noise: the interval excludes 1.00x. */
    DIFFERENT,
    /** The repeats vary as much as A and B differ. */
    WITHIN_NOISE,
    /** Fewer than 2 repeats on a side: no noise estimate. */
    TOO_FEW_REPEATS
  }

  /** A's and B's repeats of one figure (non-positive values are left out: no log). */
  public static Significance of(double[] a, double[] b) {
    double[] la = logs(a);
    double[] lb = logs(b);
    double ratio = mean(b) / mean(a);
    if (la.length < 2 || lb.length < 2) {
      return new Significance(
          la.length,
          lb.length,
          ratio,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          Verdict.TOO_FEW_REPEATS,
          suggestion(la, lb));
    }
    SummaryStatistics sa = summary(la);
    SummaryStatistics sb = summary(lb);
    double diff = sb.getMean() - sa.getMean();
    double va = sa.getVariance() / sa.getN();
    double vb = sb.getVariance() / sb.getN();
    double se = Math.sqrt(va + vb);
    if (se == 0) {
      // no spread on either side: any difference is beyond the (zero) noise
      double r = Math.exp(diff);
      return new Significance(
          la.length,
          lb.length,
          ratio,
          r,
          r,
          diff == 0 ? 1 : 0,
          diff == 0 ? Verdict.WITHIN_NOISE : Verdict.DIFFERENT,
          0);
    }
    Welch welch = new Welch();
    double df = welch.degreesOfFreedom(sa, sb);
    double t = new TDistribution(df).inverseCumulativeProbability(1 - ALPHA / 2);
    double p = welch.tTest(sa, sb);
    boolean different = p < ALPHA;
    return new Significance(
        la.length,
        lb.length,
        ratio,
        Math.exp(diff - t * se),
        Math.exp(diff + t * se),
        p,
        different ? Verdict.DIFFERENT : Verdict.WITHIN_NOISE,
        different ? 0 : repeatsFor(Math.abs(diff), pooledSd(sa, sb)));
  }

  /** commons-math3's Welch t-test, with its Welch-Satterthwaite degrees of freedom opened up. */
  private static final class Welch extends TTest {
    double degreesOfFreedom(SummaryStatistics a, SummaryStatistics b) {
      return df(a.getVariance(), b.getVariance(), a.getN(), b.getN());
    }
  }

  /**
   * With one side short of repeats, the other side's noise (if it has 2 or more) is the estimate;
   * with neither, 0 (nothing to estimate from).
   */
  private static int suggestion(double[] la, double[] lb) {
    double[] with = la.length >= 2 ? la : lb.length >= 2 ? lb : null;
    if (with == null || la.length == 0 || lb.length == 0) {
      return 0;
    }
    double diff = Math.abs(mean(lb) - mean(la));
    return repeatsFor(diff, Math.sqrt(summary(with).getVariance()));
  }

  /**
   * The least n per side for which a two-sided t-test at {@link #ALPHA} detects a difference of
   * {@code effect} in mean logs with {@link #POWER}, for log standard deviation {@code sd}.
   */
  static int repeatsFor(double effect, double sd) {
    if (sd == 0) {
      return effect > 0 ? 2 : -1;
    }
    if (effect == 0) {
      return -1;
    }
    for (int n = 2; n <= MAX_REPEATS; n++) {
      TDistribution t = new TDistribution(2.0 * n - 2);
      double needed =
          (t.inverseCumulativeProbability(1 - ALPHA / 2) + t.inverseCumulativeProbability(POWER))
              * sd
              * Math.sqrt(2.0 / n);
      if (effect >= needed) {
        return n;
      }
    }
    return -1;
  }

  private static double pooledSd(SummaryStatistics a, SummaryStatistics b) {
    double pooled =
        ((a.getN() - 1) * a.getVariance() + (b.getN() - 1) * b.getVariance())
            / (a.getN() + b.getN() - 2);
    return Math.sqrt(pooled);
  }

  private static double[] logs(double[] v) {
    return Arrays.stream(v).filter(x -> x > 0 && Double.isFinite(x)).map(Math::log).toArray();
  }

  private static double mean(double[] v) {
    return v.length == 0 ? Double.NaN : Arrays.stream(v).average().orElse(Double.NaN);
  }

  private static SummaryStatistics summary(double[] v) {
    SummaryStatistics s = new SummaryStatistics();
    Arrays.stream(v).forEach(s::addValue);
    return s;
  }

  /** "[0.91x .. 1.12x]", or "-" when there is no interval. */
  public String interval() {
    if (Double.isNaN(low)) {
      return "-";
    }
    return String.format(Locale.ROOT, "[%.2fx .. %.2fx]", low, high);
  }

  /** The call in words, e.g. "different (p = 0.003)" or "within the noise (p = 0.41); ...". */
  public String words() {
    return switch (verdict) {
      case DIFFERENT ->
          String.format(
              Locale.ROOT, "different (p %s): B / A is outside the repeats' noise", pValue());
      case WITHIN_NOISE ->
          String.format(Locale.ROOT, "within the noise (p %s)", pValue()) + settle();
      case TOO_FEW_REPEATS ->
          "not judged: "
              + (nA < 2 ? "A has " + nA : "B has " + nB)
              + " repeat(s), 2 or more on each side are needed for a noise estimate"
              + settle();
    };
  }

  private String pValue() {
    return p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "= %.3f", p);
  }

  private String settle() {
    if (repeatsToSettle > 0) {
      return String.format(
          Locale.ROOT,
          "; repeat: %d on both sides would tell a %s difference from this noise (80%% power)",
          repeatsToSettle,
          percent());
    }
    if (repeatsToSettle < 0 && verdict != Verdict.TOO_FEW_REPEATS) {
      return String.format(
          Locale.ROOT,
          "; a %s difference is too small for this noise to settle with %d repeats: treat A and B"
              + " as equal",
          percent(),
          MAX_REPEATS);
    }
    if (verdict == Verdict.TOO_FEW_REPEATS) {
      return "; run both with repeat: 3 or more";
    }
    return "";
  }

  private String percent() {
    return String.format(Locale.ROOT, "%.1f%%", Math.abs(ratio - 1) * 100);
  }
}

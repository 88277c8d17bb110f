package lockstep.coordinator.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import lockstep.coordinator.report.compare.Significance.Verdict;
import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

/**
 * Synthetic repeats of known distribution, seeded: a real 2x difference is found, two draws of one
 * distribution are not called different (at about the 5% the test promises), the interval covers
 * the true ratio, and the suggested number of repeats does settle the difference it was made for.
 */
class SignificanceTest {
  private static final int TRIALS = 400;

  /** n repeats of a throughput around {@code mean} with coefficient of variation {@code cv}. */
  private static double[] draw(NormalDistribution d, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = Math.max(1, d.sample());
    }
    return v;
  }

  private static NormalDistribution normal(long seed, double mean, double cv) {
    return new NormalDistribution(new Well19937c(seed), mean, mean * cv);
  }

  @Test
  void aReal2xDifferenceIsFoundWithThreeRepeatsAndItsIntervalHoldsTwo() {
    NormalDistribution a = normal(1, 1000, 0.10);
    NormalDistribution b = normal(2, 2000, 0.10);
    int found = 0;
    int covered = 0;
    for (int t = 0; t < TRIALS; t++) {
      Significance s = Significance.of(draw(a, 3), draw(b, 3));
      if (s.verdict() == Verdict.DIFFERENT) {
        found++;
        assertThat(s.low()).isGreaterThan(1.0);
      }
      if (s.low() <= 2.0 && 2.0 <= s.high()) {
        covered++;
      }
    }
    System.out.printf(
        "2x, n=3, cv 10%%: found %d of %d, interval held 2.0 in %d%n", found, TRIALS, covered);
    assertThat(found).isGreaterThanOrEqualTo(TRIALS * 98 / 100);
    // a 95% interval: about 95% of them hold the true ratio
    assertThat(covered).isBetween(TRIALS * 90 / 100, TRIALS * 99 / 100);
  }

  @Test
  void twoDrawsOfOneDistributionAreNotCalledDifferentBeyondTheFivePercentPromised() {
    // the demo's solo repeats vary by tens of percent: cv 30%, 3 repeats each
    NormalDistribution a = normal(3, 3000, 0.30);
    NormalDistribution b = normal(4, 3000, 0.30);
    int calledDifferent = 0;
    for (int t = 0; t < TRIALS; t++) {
      Significance s = Significance.of(draw(a, 3), draw(b, 3));
      if (s.verdict() == Verdict.DIFFERENT) {
        calledDifferent++;
      } else {
        assertThat(s.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(s.low()).isLessThanOrEqualTo(1.0);
        assertThat(s.high()).isGreaterThanOrEqualTo(1.0);
        assertThat(s.words()).startsWith("within the noise (p = ");
      }
    }
    System.out.printf(
        "same distribution, n=3, cv 30%%: called different %d of %d%n", calledDifferent, TRIALS);
    assertThat(calledDifferent).isLessThanOrEqualTo(TRIALS * 9 / 100);
  }

  @Test
  void aTwentyPercentGainInThirtyPercentNoiseIsWithinTheNoiseAndTheSuggestedRepeatsSettleIt() {
    double[] a = {3000, 2100, 3900};
    double[] b = {3600, 2520, 4680};
    Significance s = Significance.of(a, b);
    assertThat(s.ratio()).isCloseTo(1.2, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(s.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    assertThat(s.repeatsToSettle()).isGreaterThan(3);
    assertThat(s.words())
        .contains(
            "repeat: " + s.repeatsToSettle() + " on both sides would tell a 20.0% difference");
    // with that many repeats of the same distributions the difference is found about 80% of the
    // time
    int n = s.repeatsToSettle();
    LogNormalDistribution la =
        new LogNormalDistribution(new Well19937c(5), Math.log(3000), 0.30, 1e-9);
    LogNormalDistribution lb =
        new LogNormalDistribution(new Well19937c(6), Math.log(3600), 0.30, 1e-9);
    int found = 0;
    for (int t = 0; t < TRIALS; t++) {
      if (Significance.of(la.sample(n), lb.sample(n)).verdict() == Verdict.DIFFERENT) {
        found++;
      }
    }
    System.out.printf("suggested repeat: %d; found with it %d of %d%n", n, found, TRIALS);
    assertThat(found).isGreaterThanOrEqualTo(TRIALS * 65 / 100);
  }

  @Test
  void oneRepeatOnASideIsNotJudgedAndSaysHowManyWouldDo() {
    Significance s = Significance.of(new double[] {1000}, new double[] {1200, 1100, 1300});
    assertThat(s.verdict()).isEqualTo(Verdict.TOO_FEW_REPEATS);
    assertThat(s.interval()).isEqualTo("-");
    assertThat(s.words())
        .startsWith("not judged: A has 1 repeat(s), 2 or more on each side are needed")
        .contains("repeat: ");
    assertThat(Significance.of(new double[] {1000}, new double[] {1200}).words())
        .endsWith("run both with repeat: 3 or more");
  }

  @Test
  void repeatsWithoutSpreadAreDifferentWhenTheyDifferAtAll() {
    assertThat(Significance.of(new double[] {5, 5}, new double[] {6, 6}).verdict())
        .isEqualTo(Verdict.DIFFERENT);
    assertThat(Significance.of(new double[] {5, 5}, new double[] {5, 5}).verdict())
        .isEqualTo(Verdict.WITHIN_NOISE);
  }
}

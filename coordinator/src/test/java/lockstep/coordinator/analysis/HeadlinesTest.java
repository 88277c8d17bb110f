package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.report.VerdictLines;
import org.junit.jupiter.api.Test;

/** The verdict leads with at most three findings; the rest is grouped by kind and folded. */
class HeadlinesTest {
  private static final RunRecord RUN =
      TestRuns.soloThenAll(new double[] {100, 100}, new double[] {50, 50});

  private static Finding bottleneck(FindingCode code, String step) {
    return new Finding(code, Severity.INFO, "Step " + step + ": " + code + ".", step);
  }

  @Test
  void theScalingResultTheBottleneckOfTheWidestStepAndTheWorstTrustWarningLead() {
    List<Finding> found =
        List.of(
            new Finding(FindingCode.AGGREGATE, Severity.INFO, "All 2 nodes together reached ..."),
            new Finding(FindingCode.HALVED, Severity.WARNING, "each node kept 0.50x"),
            new Finding(
                FindingCode.UNSTEADY, Severity.WARNING, "unsteady in solo-node1", "solo-node1"),
            new Finding(
                FindingCode.UNSTEADY, Severity.WARNING, "unsteady in solo-node2", "solo-node2"),
            new Finding(FindingCode.NOT_TRUSTWORTHY, Severity.WARNING, "repeats disagree", "all"),
            bottleneck(FindingCode.CPU_BOUND, "solo-node1"),
            bottleneck(FindingCode.STORAGE_BOUND, "all"),
            new Finding(
                FindingCode.ENVIRONMENT, Severity.WARNING, "Nodes are not configured alike"));
    List<Finding> ordered = Headlines.order(RUN, found);
    assertThat(ordered).hasSameSizeAs(found);
    assertThat(ordered.stream().filter(Finding::headline).map(Finding::type))
        .containsExactly(
            FindingCode.HALVED, FindingCode.STORAGE_BOUND, FindingCode.NOT_TRUSTWORTHY);
    assertThat(ordered.subList(3, ordered.size()).stream().map(Finding::kind))
        .isSortedAccordingTo(Enum::compareTo);
    Map<FindingKind, List<VerdictLines.Line>> rest = VerdictLines.rest(ordered);
    assertThat(rest.keySet())
        .containsExactly(
            FindingKind.SCALING, FindingKind.BOTTLENECK, FindingKind.TRUST, FindingKind.SETUP);
    assertThat(rest.get(FindingKind.TRUST))
        .singleElement()
        .extracting(VerdictLines.Line::shown)
        .isEqualTo("unsteady in solo-node1 (the same for 1 more step: solo-node2)");
  }

  @Test
  void anInvalidRunLeadsWithWhyAndNothingElseOfTrust() {
    List<Finding> found =
        List.of(
            new Finding(FindingCode.SCALES_WELL, Severity.INFO, "kept 0.98x"),
            new Finding(FindingCode.START_SKEW, Severity.WARNING, "skew", "all"),
            new Finding(FindingCode.COHERENCE, Severity.INVALID, "INVALID RUN: coherence errors"));
    List<Finding> ordered = Headlines.order(RUN, found);
    assertThat(ordered.stream().filter(Finding::headline).map(Finding::type))
        .containsExactly(FindingCode.COHERENCE, FindingCode.SCALES_WELL);
    assertThat(ordered.get(ordered.size() - 1).type()).isEqualTo(FindingCode.START_SKEW);
  }

  @Test
  void aRealRunKeepsEveryFindingWithItsKindAndAtMostThreeHeadlines() {
    List<Finding> findings = RUN.analysis().findings();
    assertThat(findings).isNotEmpty().allSatisfy(f -> assertThat(f.kind()).isNotNull());
    assertThat(findings.stream().filter(Finding::headline).count()).isBetween(1L, 3L);
    assertThat(findings.get(0).headline()).isTrue();
    assertThat(findings.get(0).type()).isEqualTo(FindingCode.HALVED);
  }

  @Test
  void eachKindLeadsWithItsLowestRankedCodeAndNoBottleneckOnlyWhenNothingElseBound() {
    List<Finding> found =
        List.of(
            new Finding(FindingCode.AGGREGATE, Severity.INFO, "aggregate"),
            new Finding(FindingCode.OUTLIER, Severity.WARNING, "outlier", "all"),
            new Finding(FindingCode.SCALES_WELL, Severity.INFO, "kept 0.95x"),
            bottleneck(FindingCode.NO_BOTTLENECK, "all"),
            bottleneck(FindingCode.PAGE_CACHE, "all"),
            bottleneck(FindingCode.CPU_BOUND, "solo-node1"),
            new Finding(FindingCode.NOISY, Severity.INFO, "noisy", "all"));
    List<Finding> ordered = Headlines.order(RUN, found);
    // scales-well (rank 4) before aggregate (7), outliers never; a CPU-bound solo step before
    // "no single bottleneck" of the wider step, page cache never; an INFO trust note never
    assertThat(ordered.stream().filter(Finding::headline).map(Finding::type))
        .containsExactly(FindingCode.SCALES_WELL, FindingCode.CPU_BOUND);
    assertThat(FindingCode.OUTLIER.canLead()).isFalse();
    assertThat(FindingCode.PAGE_CACHE.canLead()).isFalse();
    assertThat(FindingCode.NO_BOTTLENECK.headlineRank())
        .isGreaterThan(FindingCode.STORAGE_BOUND.headlineRank());
  }
}

package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.report.VerdictLines;
import org.junit.jupiter.api.Test;

/** The verdict leads with at most three findings; the rest is grouped by kind and folded. */
class HeadlinesTest {
  private static final RunRecord RUN =
      TestRuns.soloThenAll(new double[] {100, 100}, new double[] {50, 50});

  private static Finding bottleneck(String code, String step) {
    return new Finding(code, Severity.INFO, "Step " + step + ": " + code + ".", step);
  }

  @Test
  void theScalingResultTheBottleneckOfTheWidestStepAndTheWorstTrustWarningLead() {
    List<Finding> found =
        List.of(
            new Finding("aggregate", Severity.INFO, "All 2 nodes together reached ..."),
            new Finding("halved", Severity.WARNING, "each node kept 0.50x"),
            new Finding("unsteady", Severity.WARNING, "unsteady in solo-node1", "solo-node1"),
            new Finding("unsteady", Severity.WARNING, "unsteady in solo-node2", "solo-node2"),
            new Finding("not-trustworthy", Severity.WARNING, "repeats disagree", "all"),
            bottleneck("cpu-bound", "solo-node1"),
            bottleneck("storage-bound", "all"),
            new Finding("environment", Severity.WARNING, "Nodes are not configured alike"));
    List<Finding> ordered = Headlines.order(RUN, found);
    assertThat(ordered).hasSameSizeAs(found);
    assertThat(ordered.stream().filter(Finding::headline).map(Finding::code))
        .containsExactly("halved", "storage-bound", "not-trustworthy");
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
            new Finding("scales-well", Severity.INFO, "kept 0.98x"),
            new Finding("start-skew", Severity.WARNING, "skew", "all"),
            new Finding("coherence", Severity.INVALID, "INVALID RUN: coherence errors"));
    List<Finding> ordered = Headlines.order(RUN, found);
    assertThat(ordered.stream().filter(Finding::headline).map(Finding::code))
        .containsExactly("coherence", "scales-well");
    assertThat(ordered.get(ordered.size() - 1).code()).isEqualTo("start-skew");
  }

  @Test
  void aRealRunKeepsEveryFindingWithItsKindAndAtMostThreeHeadlines() {
    List<Finding> findings = RUN.analysis().findings();
    assertThat(findings).isNotEmpty().allSatisfy(f -> assertThat(f.kind()).isNotNull());
    assertThat(findings.stream().filter(Finding::headline).count()).isBetween(1L, 3L);
    assertThat(findings.get(0).headline()).isTrue();
    assertThat(findings.get(0).code()).isEqualTo("halved");
  }
}

package lockstep.coordinator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import lockstep.coordinator.report.ResultsStore;
import org.junit.jupiter.api.Test;

/** Finding codes are a type that run.json still writes as the words it always had. */
class FindingCodeTest {
  @Test
  void everyCodeIsWrittenAsTheWordRunJsonAlwaysHadWithItsKindAndReadsBack() throws Exception {
    // the 31 codes run.json files have carried, as their readers know them, and fault-victim (a
    // frozen or partitioned node's own finding, since the lab's partition)
    assertThat(Arrays.stream(FindingCode.values()).map(FindingCode::toString))
        .containsExactlyInAnyOrder(
            "coherence",
            "coherence-inconclusive",
            "run-failed",
            "node-local-locks",
            "fault-stall",
            "fault-victim",
            "together",
            "scales-well",
            "halved",
            "scaling-loss",
            "aggregate",
            "aggregate-flat",
            "rate-limit",
            "outlier",
            "outlier-solo",
            "storage-bound",
            "network-bound",
            "cpu-bound",
            "waiting",
            "ring-waiting",
            "cluster-lock-bound",
            "no-bottleneck",
            "page-cache",
            "start-skew",
            "no-overlap",
            "overlap",
            "noisy",
            "not-trustworthy",
            "unsteady",
            "same-machine",
            "environment",
            "single-machine");
    var json = ResultsStore.json();
    for (FindingCode c : FindingCode.values()) {
      Finding f = new Finding(c, Severity.WARNING, "m", "all");
      String written = json.writeValueAsString(f).replace(" ", "").replace("\n", "");
      assertThat(written)
          .startsWith("{\"code\":\"" + c + "\",\"severity\":\"warning\",\"message\":\"m\"")
          .contains("\"kind\":\"" + c.kind() + "\"", "\"step\":\"all\"");
      assertThat(json.readValue(written, Finding.class)).isEqualTo(f);
      assertThat(f.code()).isEqualTo(c.toString());
    }
  }

  @Test
  void aFindingWrittenBeforeKindsGetsItsKindFromItsCodeAndAnUnknownCodeIsRefused()
      throws Exception {
    var json = ResultsStore.json();
    Finding old =
        json.readValue(
            "{\"code\":\"start-skew\",\"severity\":\"warning\",\"message\":\"m\"}", Finding.class);
    assertThat(old.type()).isEqualTo(FindingCode.START_SKEW);
    assertThat(old.kind()).isEqualTo(FindingKind.TRUST);
    assertThat(old.headline()).isFalse();
    assertThat(old.step()).isNull();
    // a file's own kind is not read back: the code's is the one
    Finding misfiled =
        json.readValue(
            "{\"code\":\"halved\",\"severity\":\"warning\",\"message\":\"m\",\"kind\":\"setup\"}",
            Finding.class);
    assertThat(misfiled.kind()).isEqualTo(FindingKind.SCALING);
    assertThatThrownBy(
            () ->
                json.readValue(
                    "{\"code\":\"never-heard-of\",\"severity\":\"info\",\"message\":\"m\"}",
                    Finding.class))
        .hasMessageContaining("finding code 'never-heard-of' is not one of [coherence,");
  }

  @Test
  void theHeadlineRanksOrderEachKindAsTheReportLeads() {
    assertThat(
            Arrays.stream(FindingCode.values())
                .filter(c -> c.kind() == FindingKind.SCALING && c.canLead()))
        .isSortedAccordingTo((a, b) -> a.headlineRank() - b.headlineRank())
        .startsWith(FindingCode.RATE_LIMIT, FindingCode.HALVED, FindingCode.SCALING_LOSS);
    assertThat(
            Arrays.stream(FindingCode.values())
                .filter(c -> c.kind() == FindingKind.TRUST && c.canLead()))
        .startsWith(FindingCode.NOT_TRUSTWORTHY, FindingCode.START_SKEW);
    assertThat(Arrays.stream(FindingCode.values()).filter(c -> c.kind() == FindingKind.SETUP))
        .allSatisfy(c -> assertThat(c.canLead()).isFalse());
  }
}

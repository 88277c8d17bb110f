package lockstep.coordinator.model;

import static org.assertj.core.api.Assertions.assertThat;

import lockstep.coordinator.report.ResultsStore;
import org.junit.jupiter.api.Test;

class FindingKindTest {
  @Test
  void aFindingWrittenBeforeKindsGetsItsKindFromItsCodeAndAFindingRoundTrips() throws Exception {
    var json = ResultsStore.json();
    Finding old =
        json.readValue(
            "{\"code\":\"start-skew\",\"severity\":\"warning\",\"message\":\"m\"}", Finding.class);
    assertThat(old.kind()).isEqualTo(FindingKind.TRUST);
    assertThat(old.headline()).isFalse();
    assertThat(old.step()).isNull();
    Finding f = new Finding("storage-bound", Severity.INFO, "Step all: x.", "all").asHeadline();
    String written = json.writeValueAsString(f);
    assertThat(written.replace(" ", ""))
        .contains("\"kind\":\"bottleneck\"", "\"headline\":true", "\"step\":\"all\"");
    assertThat(json.readValue(written, Finding.class)).isEqualTo(f);
    assertThat(FindingKind.of("never-heard-of")).isEqualTo(FindingKind.SETUP);
  }
}

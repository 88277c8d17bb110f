package lockstep.coordinator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.report.ReportInputException;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.RunLocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statuses and severities are enums in the code and the same lower-case words in run.json as
 * before.
 */
class StatusWordsTest {
  private static final String OLD_RUN =
      """
      {"schema":"lockstep.run/v1","runId":"x","name":"x","createdAt":"2025","coordinatorVersion":"0",
       "workloadType":"lock-files","workload":{},"unit":"locks/s","opName":"lock","plan":["all"],"agents":[],
       "steps":[{"id":"all","kind":"all","nodes":["n1","n2"],"intendedStartUnixNanos":1,"status":"failed",
                 "results":[{"node":"n1","status":"ok","ops":5,"seconds":1.0,"throughput":5.0},
                            {"node":"n2","status":"aborted","ops":0}],"errors":["node n2: aborted"]}],
       "analysis":{"valid":true,"findings":[{"code":"halved","severity":"warning","message":"m"},
                                             {"code":"aggregate","severity":"info","message":"n"}]},
       "status":"STATUS","errors":[]}
      """;

  @TempDir Path dir;

  @Test
  void anOldRunJsonLoadsIntoTheEnumsAndIsWrittenBackWithTheSameWords() throws Exception {
    Path file =
        Files.writeString(dir.resolve("run.json"), OLD_RUN.replace("STATUS", "interrupted"));

    RunRecord r = ResultsStore.json().readValue(file.toFile(), RunRecord.class);

    assertThat(r.status()).isEqualTo(RunStatus.INTERRUPTED);
    assertThat(r.steps().get(0).status()).isEqualTo(RunStatus.FAILED);
    assertThat(r.steps().get(0).results())
        .extracting(NodeResult::status)
        .containsExactly(RunStatus.OK, RunStatus.ABORTED);
    assertThat(r.analysis().findings())
        .extracting(Finding::severity)
        .containsExactly(Severity.WARNING, Severity.INFO);

    JsonNode written = ResultsStore.json().valueToTree(r);
    assertThat(written.get("status").asText()).isEqualTo("interrupted");
    assertThat(written.at("/steps/0/status").asText()).isEqualTo("failed");
    assertThat(written.at("/steps/0/results/1/status").asText()).isEqualTo("aborted");
    assertThat(written.at("/analysis/findings/0/severity").asText()).isEqualTo("warning");
  }

  @Test
  void anUnknownStatusIsOneLineNamingTheFileAndTheWord() throws Exception {
    Path file = Files.writeString(dir.resolve("run.json"), OLD_RUN.replace("STATUS", "maybe"));

    assertThatThrownBy(() -> RunLocator.load(file))
        .isInstanceOf(ReportInputException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining(
            "status 'maybe' is not one of [ok, failed, aborted, incomplete, interrupted,"
                + " collected]")
        .hasMessageNotContaining("\n");
  }

  @Test
  void severitiesSortMostSevereFirstAndPrintAsBefore() {
    assertThat(Severity.values())
        .containsExactly(Severity.INVALID, Severity.WARNING, Severity.INFO);
    assertThat(EnumWords.parse(Severity.class, "invalid")).isEqualTo(Severity.INVALID);
    assertThat(RunStatus.OK).hasToString("ok");
  }
}

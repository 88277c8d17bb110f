package lockstep.coordinator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run.json files as the code before the typed workload wrote them (schema v1, test resources
 * run-json/v1: three saved by `lockstep run` with the workload as the scenario's keys, one by
 * `lockstep collect` with the proto's field names) load into the typed record, are analysed again
 * to the very analysis they recorded, and are written back as schema v2.
 */
class RunJsonV1Test {
  @TempDir Path tmp;

  private static Path fixture(String name) throws Exception {
    return Path.of(RunJsonV1Test.class.getResource("/run-json/v1/" + name + ".json").toURI());
  }

  private static RunRecord load(String name) throws Exception {
    return RunLocator.load(fixture(name));
  }

  @Test
  void aRunsScenarioKeysAreReadByTheScenarioParsersRulesIntoTheSpecItsAgentsRan() throws Exception {
    RunRecord ring = load("ping-pong");
    assertThat(ring.schema()).isEqualTo(RunRecord.SCHEMA);
    assertThat(ring.kind()).isEqualTo(WorkloadKind.PING_PONG);
    assertThat(ring.workload())
        .isEqualTo(
            WorkloadKind.PING_PONG.spec(
                PingPongWorkload.newBuilder()
                    .setIo(PingPongIo.PING_PONG_IO_NONE)
                    .setFile("ping-pong.dat")
                    .setSlots(4)
                    .setProcesses(1)
                    .setLock(LockKind.LOCK_KIND_FCNTL)
                    .setDurationMillis(1000)
                    .setWarmupMillis(200)
                    .build()));
    RunRecord write = load("write");
    assertThat(write.workload().getWrite().getBlockSizeBytes()).isEqualTo(64 << 10);
    assertThat(write.workload().getWrite().getSizeBytes()).isEqualTo(4 << 20);
    assertThat(write.workload().getWrite().getFile()).isEqualTo("lockstep-write.{node}");
    assertThat(write.workload().getInstrumentationOff()).isFalse();
    RunRecord hot = load("hot-lock");
    assertThat(hot.lockKind()).isEqualTo(LockKind.LOCK_KIND_FLOCK);
    assertThat(hot.workload().getHotLock().getThreads()).isEqualTo(2);
    assertThat(hot.workload().getHotLock().getDurationMillis()).isEqualTo(300);
  }

  @Test
  void aCollectedRunsProtoFieldNamesAreReadAsTheKindItsTypeNames() throws Exception {
    RunRecord collected = load("collected");
    assertThat(collected.kind()).isEqualTo(WorkloadKind.WRITE);
    assertThat(collected.workload().getWrite().getFile()).isEqualTo("w.{node}");
    assertThat(collected.workload().getWrite().getSizeBytes()).isEqualTo(1 << 20);
    assertThat(collected.workload().getWrite().getBlockSizeBytes()).isEqualTo(4096);
  }

  @Test
  void everyOldRunIsAnalysedAgainToTheAnalysisItRecorded() throws Exception {
    for (String name : new String[] {"ping-pong", "write", "hot-lock", "collected"}) {
      JsonNode recorded = ResultsStore.json().readTree(fixture(name).toFile()).get("analysis");
      JsonNode again = ResultsStore.json().valueToTree(load(name)).get("analysis");
      // compared as text: a number read from a file and one written from a record are nodes of
      // different types
      assertThat(again.toString()).as(name).isEqualTo(recorded.toString());
    }
  }

  @Test
  void anOldRunSavedAgainIsSchemaV2WithTheTypedWorkloadAndReadsBackTheSame() throws Exception {
    RunRecord old = load("ping-pong");
    Path saved = new ResultsStore(tmp).save(old);
    JsonNode file = ResultsStore.json().readTree(saved.toFile());
    assertThat(file.get("schema").asText()).isEqualTo("lockstep.run/v2");
    assertThat(file.get("workloadType").asText()).isEqualTo("ping-pong");
    JsonNode ring = file.get("workload").get("pingPong");
    assertThat(ring.get("warmupMillis").asText()).isEqualTo("200");
    assertThat(ring.get("lock").asText()).isEqualTo("LOCK_KIND_FCNTL");
    assertThat(ring.get("tryLock").asBoolean(true)).isFalse();
    assertThat(RunLocator.load(saved)).isEqualTo(old);
  }

  @Test
  void aV1WorkloadThisVersionCannotReadIsRefusedNamingTheFieldAndTheFile() throws Exception {
    String text =
        Files.readString(fixture("ping-pong")).replace("\"warmup\" : \"200ms\"", "\"warmup\" : 5");
    Path bad = Files.writeString(tmp.resolve("run.json"), text);
    assertThatThrownBy(() -> RunLocator.load(bad))
        .isInstanceOf(ReportInputException.class)
        .hasMessageStartingWith(bad + ": not a Lockstep run.json: workload (schema v1): ")
        .hasMessageContaining("workload.warmup");
    assertThat(WorkloadSpec.getDefaultInstance().getKindCase())
        .isEqualTo(WorkloadSpec.KindCase.KIND_NOT_SET);
  }
}

package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import org.junit.jupiter.api.Test;

/**
 * A spec in the scenario's words (WorkloadKind.settings, what reports show) reads back through the
 * scenario parser to the same spec, for a workload of every type with fields away from their
 * defaults.
 */
class WorkloadSettingsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static WorkloadSpec parse(String workload) {
    return new ScenarioParser().parse("name: t\nworkload: " + workload + "\n", "t.yaml").workload();
  }

  @Test
  void theScenarioWordsOfASpecReadBackToTheSameSpec() throws Exception {
    List<String> workloads =
        List.of(
            "{type: write, size: 3MiB, block-size: 4KiB, fdatasync: true, pattern: random,"
                + " threads: 3, seed: 7, file: w.dat}",
            "{type: read, size: 2MiB, block-size: 64KiB, o-direct: true, threads: 2}",
            "{type: lock-files, processes: 3, files: 20, lock: ofd, release: unlock-each,"
                + " close: each, lock-mode: shared, lock-wait: try}",
            "{type: ping-pong, io: read-write, slots: 9, processes: 2, lock: ofd, duration: 2s,"
                + " warmup: 250ms}",
            "{type: hot-lock, lock: flock, processes: 2, threads: 3, hold: 50us, duration: 90s,"
                + " instrumentation: false}",
            "{type: metadata, files: 10, depth: 2, threads: 2, ops: [unlink, create]}");
    for (String w : workloads) {
      Scenario s = new ScenarioParser().parse("name: t\nworkload: " + w + "\n", "t.yaml");
      WorkloadSpec spec = s.workload();
      Map<String, Object> words = new LinkedHashMap<>();
      words.put("type", s.kind().name());
      words.putAll(s.kind().settings(spec));
      assertThat(parse(JSON.writeValueAsString(words))).as(w).isEqualTo(spec);
    }
  }
}

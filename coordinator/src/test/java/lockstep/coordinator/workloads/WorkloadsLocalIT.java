package lockstep.coordinator.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lockstep.coordinator.local.LocalAgents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every workload through `lockstep run` with two real agent processes whose roots are one local
 * directory (so "shared" files really are shared), solo then all.
 */
class WorkloadsLocalIT {
  @TempDir static Path work;
  static LocalAgents agents;

  @BeforeAll
  static void startAgents() throws Exception {
    Path shared = Files.createDirectory(work.resolve("shared"));
    agents = LocalAgents.start(List.of(shared, shared), work);
  }

  @AfterAll
  static void stopAgents() {
    if (agents != null) {
      agents.close();
    }
  }

  private static void assertOk(ScenarioRuns.Outcome o) {
    assertThat(o.run().get("errors")).as("errors").isEmpty();
    assertThat(o.exitCode()).isZero();
    assertThat(o.run().get("status").asText()).isEqualTo("ok");
  }

  private static void assertNothingLeft() throws Exception {
    try (var files = Files.list(work.resolve("shared"))) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void pingPongAcrossTwoAgentsIsCoherentLocally() throws Exception {
    var o =
        ScenarioRuns.run(
            agents,
            work,
            "pp",
            "type: ping-pong\nio: read-write\nduration: 1s\nwarmup: 300ms",
            "[solo, all]");
    assertOk(o);
    for (String node : List.of("node1", "node2")) {
      JsonNode n = o.node("all", node);
      assertThat(n.get("ops").asLong()).isPositive();
      assertThat(n.get("coherenceChecks").asLong()).isPositive();
      assertThat(n.get("coherenceErrors").asLong()).isZero();
      assertThat(Math.abs(n.get("startSkewMillis").asDouble()))
          .as("skew net of the warm-up")
          .isLessThan(100);
      assertThat(n.get("latency").get("p99Micros").asDouble()).isPositive();
    }
    assertNothingLeft();
  }

  @Test
  void hotLockReportsEachNodesShare() throws Exception {
    var o =
        ScenarioRuns.run(
            agents,
            work,
            "hot",
            "type: hot-lock\nprocesses: 2\nthreads: 2\nlock: ofd\nduration: 1s",
            "[all]");
    assertOk(o);
    double shares = 0;
    for (String node : List.of("node1", "node2")) {
      JsonNode n = o.node("all", node);
      assertThat(n.get("ops").asLong()).isPositive();
      shares += n.get("opsShare").asDouble();
    }
    assertThat(shares).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
    assertNothingLeft();
  }

  @Test
  void metadataInOneSharedDirectory() throws Exception {
    var o =
        ScenarioRuns.run(
            agents,
            work,
            "md",
            "type: metadata\ndir: md\nfiles: 200\ndepth: 2\nthreads: 2",
            "[all]");
    assertOk(o);
    for (String node : List.of("node1", "node2")) {
      JsonNode ops = o.node("all", node).get("operations");
      assertThat(ops).hasSize(4);
      ops.forEach(
          op -> {
            assertThat(op.get("ops").asLong()).isEqualTo(400);
            assertThat(op.get("rate").asDouble()).isPositive();
          });
    }
    assertNothingLeft();
  }

  @Test
  void lockFilesVariantAndReadWrite() throws Exception {
    assertOk(
        ScenarioRuns.run(
            agents,
            work,
            "lf",
            "type: lock-files\n"
                + "processes: 2\n"
                + "files: 100\n"
                + "lock: flock\n"
                + "release: unlock-each\n"
                + "close: each\n"
                + "lock-wait: try",
            "[all]"));
    var r =
        ScenarioRuns.run(
            agents,
            work,
            "rd",
            "type: read\nsize: 8MiB\nblock-size: 64KiB\npattern: random\nthreads: 2",
            "[all]");
    assertOk(r);
    assertThat(r.node("all", "node1").get("bytes").asLong()).isEqualTo(8 << 20);
    assertThat(r.run().get("unit").asText()).isEqualTo("MB/s");
    assertThat(r.run().get("opName").asText()).isEqualTo("read");
    var w =
        ScenarioRuns.run(
            agents,
            work,
            "wr",
            "type: write\n"
                + "size: 8MiB\n"
                + "block-size: 64KiB\n"
                + "pattern: random\n"
                + "threads: 2\n"
                + "fdatasync: true",
            "[all]");
    assertOk(w);
    assertThat(w.node("all", "node2").get("ops").asLong()).isEqualTo(128);
    assertNothingLeft();
  }
}

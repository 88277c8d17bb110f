package lockstep.coordinator.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import lockstep.coordinator.local.LocalAgents;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource telemetry on real situations: each run must name the bottleneck that the situation
 * really has. Local runs use the machine's disk under java.io.tmpdir (it must be a real block
 * device, not tmpfs or overlay: checked from the agents' own description); the waiting case uses
 * the two GlusterFS mounts CI provides.
 */
class BottleneckIT {
  @TempDir Path work;

  /** The verdict line of a step ("Step all: ..."), with its code. */
  static JsonNode finding(ScenarioRuns.Outcome o, String step) {
    for (JsonNode f : o.run().get("analysis").get("findings")) {
      if (f.get("message").asText().startsWith("Step " + step + ":")
          && !f.get("code").asText().equals("page-cache")) {
        return f;
      }
    }
    throw new AssertionError(
        "no bottleneck line for step " + step + " in " + o.run().get("analysis").get("verdict"));
  }

  static JsonNode resources(ScenarioRuns.Outcome o, String step, String node) {
    JsonNode r = o.node(step, node).get("resources");
    assertThat(r.isNull()).as("resources of %s in %s", node, step).isFalse();
    return r;
  }

  private static void requireBlockDevice(ScenarioRuns.Outcome o, Path root) {
    String device = o.run().get("agents").get(0).get("blockDevice").asText();
    if (device.isEmpty()) {
      String what =
          "the local-disk bottleneck test needs "
              + root
              + " on a block device (it is on "
              + o.run().get("agents").get(0).get("fsType").asText()
              + "): set java.io.tmpdir to a directory on a disk";
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true and " + what);
      }
      Assumptions.abort(what);
    }
  }

  /**
   * The scenario run by two agents on one directory of the local disk (both roots the same); needs
   * the disk to be a block device (missing: fails under CI=true, else skips).
   */
  private ScenarioRuns.Outcome runOnTheLocalDisk(String name, String workload, String plan)
      throws IOException {
    Path shared = Files.createDirectory(work.resolve("shared"));
    try (LocalAgents agents = LocalAgents.start(List.of(shared, shared), work)) {
      ScenarioRuns.Outcome o = ScenarioRuns.run(agents, work, name, workload, plan);
      requireBlockDevice(o, shared);
      return o;
    }
  }

  /** Step all's bottleneck line has this code (its message shown if not) and says each part. */
  private static void assertAllStepFinding(ScenarioRuns.Outcome o, String code, String... parts) {
    JsonNode f = finding(o, "all");
    assertThat(f.get("code").asText()).as(f.get("message").asText()).isEqualTo(code);
    assertThat(f.get("message").asText()).contains(parts);
  }

  @Test
  void oDirectWritesOnTheLocalDiskAreStorageBound() throws Exception {
    var o =
        runOnTheLocalDisk(
            "odirect",
            "type: write\n"
                + "file: \"od.{node}\"\n"
                + "block-size: 1MiB\n"
                + "size: 2GiB\n"
                + "o-direct: true\n"
                + "threads: 8",
            "[solo, all]");
    assertThat(o.exitCode()).isZero();
    assertAllStepFinding(o, "storage-bound", "busy", "while together", "alone");
    JsonNode run = resources(o, "all", "node1").get("run");
    assertThat(run.get("devices").get(0).get("writeMBps").asDouble())
        .as("device write MB/s")
        .isPositive();
    assertThat(o.node("all", "node1").get("resources").get("device").asText())
        .isEqualTo(o.run().get("agents").get(0).get("blockDevice").asText());
  }

  @Test
  void pingPongWithMoreProcessesThanCoresIsCpuBoundInTheWorkloadsOwnProcesses() throws Exception {
    int processes = Runtime.getRuntime().availableProcessors() + 1;
    var o =
        runOnTheLocalDisk(
            "ppcpu",
            // try-locks spin in the workers: more of them than cores keep the CPU busy
            "type: ping-pong\nprocesses: "
                + processes
                + "\nlock-wait: try\nduration: 2s\nwarmup: 300ms",
            "[all]");
    assertThat(o.exitCode()).isZero();
    assertAllStepFinding(o, "cpu-bound", "in the workload's own processes");
    JsonNode r = resources(o, "all", "node1");
    assertThat(r.get("run").get("workloadCpuPercent").asDouble())
        .as("worker processes' CPU")
        .isPositive();
    assertThat(r.get("lockWaitShare").asDouble()).isBetween(0.0, 1.0);
  }

  @Test
  void lockFilesOnGlusterWaitAndMoveLoopbackCounters() throws Exception {
    List<Path> mounts = GlusterMounts.require();
    String dir = "lockstep-bottleneck-" + UUID.randomUUID();
    Files.createDirectory(mounts.get(0).resolve(dir));
    List<Path> roots = List.of(mounts.get(0).resolve(dir), mounts.get(1).resolve(dir));
    try (LocalAgents agents = LocalAgents.start(roots, work)) {
      var o =
          ScenarioRuns.run(
              agents,
              work,
              "lfwait",
              "type: lock-files\nprocesses: 4\nfiles: 300\nlock: fcntl",
              "[all]");
      assertThat(o.exitCode()).isZero();
      JsonNode f = finding(o, "all");
      JsonNode r = resources(o, "all", "node1");
      assertThat(f.get("code").asText())
          .as(
              "%s (idle baseline CPU %s%%)",
              f.get("message").asText(), r.get("baseline").path("cpuBusyPercent").asText())
          .isEqualTo("waiting");
      assertThat(f.get("message").asText())
          .contains("of the workers' time inside lock calls", "no local block device");
      assertThat(r.get("device").asText()).as("FUSE has no block device").isEmpty();
      List<Double> lo = new ArrayList<>();
      for (JsonNode i : r.get("run").get("interfaces")) {
        if (i.get("name").asText().equals("lo")) {
          lo.add(i.get("rxMBps").asDouble() + i.get("txMBps").asDouble());
        }
      }
      assertThat(lo).as("loopback carries the GlusterFS traffic").hasSize(1);
      assertThat(lo.get(0)).isPositive();
      Path report =
          Files.walk(work.resolve("results-lfwait"))
              .filter(p -> p.getFileName().toString().equals("report.html"))
              .findFirst()
              .orElseThrow();
      assertThat(Files.readString(report))
          .contains("Where the time went", "chart-resources-all", "network MB/s");
    } finally {
      try (Stream<Path> s = Files.walk(mounts.get(0).resolve(dir))) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}

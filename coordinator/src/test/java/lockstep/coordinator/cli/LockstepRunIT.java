package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.it.Coordinator;
import org.junit.jupiter.api.Test;

/**
 * End to end through the CLI against two real agent processes on loopback: both workloads, both
 * phases, every node, measured skew, files cleaned; and a node failing mid-run.
 */
class LockstepRunIT extends TwoLocalAgents {
  record Outcome(int code, String out, String err, JsonNode run) {}

  private Outcome run(String name, String workload) throws Exception {
    Path scenario =
        Files.writeString(
            tmp.resolve(name + ".yaml"),
            "name: " + name + "\nplan: [solo, all]\nstart-lead: 1s\nworkload: " + workload + "\n");
    Path results = tmp.resolve("results-" + name);
    Cli cli = Cli.run(Cli.runArgs(scenario, agents.addresses(), results));
    JsonNode json = null;
    if (Files.isDirectory(results)) {
      json = new ObjectMapper().readTree(Cli.runJson(results).toFile());
    }
    return new Outcome(cli.exitCode(), cli.out(), cli.err(), json);
  }

  private static List<Path> filesUnderRoots() throws Exception {
    List<Path> out = new java.util.ArrayList<>();
    for (Path root : agents.roots()) {
      try (Stream<Path> s = Files.walk(root)) {
        s.filter(p -> !p.equals(root)).forEach(out::add);
      }
    }
    return out;
  }

  private static void assertBothPhasesOnEveryNode(Outcome o) {
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode steps = o.run().get("steps");
    assertThat(steps)
        .extracting(s -> s.get("id").asText())
        .containsExactly("solo-node1", "solo-node2", "all");
    for (JsonNode step : steps) {
      assertThat(step.get("status").asText()).isEqualTo("ok");
      for (JsonNode n : step.get("results")) {
        assertThat(n.get("status").asText()).isEqualTo("ok");
        assertThat(n.get("throughput").asDouble()).isPositive();
        assertThat(n.get("firstOpUnixNanos").asLong()).isPositive();
        // The skew is the node's first operation minus the step's instant, both on the
        // coordinator's clock ...
        double skew = n.get("startSkewMillis").asDouble();
        double measured =
            (n.get("firstOpUnixNanos").asLong() - step.get("intendedStartUnixNanos").asLong())
                / 1e6;
        assertThat(skew).isCloseTo(measured, within(0.01));
        // ... and the node started at that instant, not when Start reached it: the
        // instant was set 1 s (start-lead) ahead, so a node that ignored it would be
        // about -1,000 ms early, and one that waited for another node's phase, late by
        // a whole step. On this machine the runs reach 0.06-1.4 ms (CI, 2026-12-06); 50 ms
        // leaves room for a busy host, not for a start that missed the instant.
        assertThat(Math.abs(skew)).isLessThan(50);
      }
    }
    assertThat(steps.get(2).get("results"))
        .extracting(n -> n.get("node").asText())
        .containsExactly("node1", "node2");
    JsonNode analysis = o.run().get("analysis");
    // two agents on one machine's two cores, each on its own directory: together each keeps
    // about half to all of its solo rate (0.55-0.72 in CI, 2026-12-06): neither next to nothing
    // nor well above its solo rate, as a wrong ratio (solo and together swapped, a sum of nodes
    // for one) would be
    assertThat(analysis.get("nodes"))
        .allSatisfy(n -> assertThat(n.get("efficiency").asDouble()).isBetween(0.25, 1.25));
    assertThat(analysis.get("verdict").get(0).asText())
        .startsWith("Running together, each node kept");
  }

  @Test
  void agentProcessesAreProbedOverUdpOnTheirGrpcPortsNumber() throws Exception {
    Cli cli = Cli.run("agents", "--agents", String.join(",", agents.addresses()));
    assertThat(cli.exitCode()).as(cli.err()).isZero();
    List<String> rows = cli.out().lines().skip(1).toList();
    assertThat(rows)
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.split("\\s+")[7]).as(r).isEqualTo("udp"));
    for (String address : agents.addresses()) {
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      try (var agent = GrpcAgent.connect(address)) {
        assertThat(agent.describe().getClockProbePort()).isEqualTo(port);
      }
    }
  }

  @Test
  void writeWorkloadSoloAndAll() throws Exception {
    Outcome o =
        run(
            "it-write",
            "{type: write, file: 'testFile.{node}', block-size: 4KiB, size: 16MiB, fdatasync:"
                + " true}");
    assertBothPhasesOnEveryNode(o);
    assertThat(o.run().get("steps").get(2).get("results").get(0).get("bytes").asLong())
        .isEqualTo(16L << 20);
    assertThat(o.out())
        .contains("Scaling (all nodes at once vs each node alone)")
        .contains("Verdict:")
        .contains("MB/s");
    assertThat(filesUnderRoots()).isEmpty();
  }

  @Test
  void lockFilesWorkloadSoloAndAll() throws Exception {
    Outcome o = run("it-locks", "{type: lock-files, processes: 3, files: 100, lock: fcntl}");
    assertBothPhasesOnEveryNode(o);
    JsonNode all = o.run().get("steps").get(2);
    assertThat(all.get("results"))
        .allSatisfy(n -> assertThat(n.get("ops").asLong()).isEqualTo(300));
    assertThat(all.get("aggregate").get("latency").get("count").asLong()).isEqualTo(600);
    assertThat(o.out()).contains("locks/s");
    assertThat(filesUnderRoots()).isEmpty();
  }

  @Test
  void aFilePlantedInTheRunsOwnDirectoryOnOneNodeIsNamedAndLeftAndTheRunFails() throws Exception {
    // every path of a run is in its directory lockstep-RUN.STEP, so nothing of another run or of a
    // user's is ever in its way; one planted there once the run id is printed still is refused
    // (workers create with O_EXCL) and never removed
    Path scenario =
        Files.writeString(
            tmp.resolve("it-fail.yaml"),
            "name: it-fail\n"
                + "plan: [solo, all]\n"
                + "start-lead: 1s\n"
                + "workload: {type: lock-files, processes: 2, files: 2000, lock: fcntl}\n");
    Path results = tmp.resolve("results-it-fail");
    Coordinator c =
        Coordinator.start(
            tmp.resolve("coordinator-it-fail"), Cli.runArgs(scenario, agents.addresses(), results));
    Matcher runLine = Pattern.compile("Run (\\S+):").matcher("");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> runLine.reset(c.out()).find() || !c.process().isAlive());
    Path runDir = agents.roots().get(1).resolve("lockstep-" + runLine.group(1) + ".solo-node2");
    Path blocker = runDir.resolve("lock-files.node2/test-0-40");
    Files.createDirectories(blocker);
    try {
      assertThat(c.process().waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(c.process().exitValue()).as(c.err()).isEqualTo(1);
      assertThat(c.err())
          .contains("node2")
          .contains(agents.roots().get(1).relativize(blocker).toString())
          .contains("EEXIST");
      assertThat(c.err()).doesNotContain("Exception").doesNotContain("\tat ");
      JsonNode run = new ObjectMapper().readTree(Cli.runJson(results).toFile());
      assertThat(run.get("steps"))
          .extracting(s -> s.get("id").asText())
          .containsExactly("solo-node1", "solo-node2");
      assertThat(run.get("status").asText()).isEqualTo("failed");
      assertThat(blocker).isDirectory();
    } finally {
      c.process().destroyForcibly();
      Files.delete(blocker);
      Files.delete(blocker.getParent());
      Files.delete(runDir);
    }
    assertThat(filesUnderRoots()).isEmpty();
  }
}

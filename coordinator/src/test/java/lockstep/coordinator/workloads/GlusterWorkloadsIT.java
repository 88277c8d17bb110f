package lockstep.coordinator.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lockstep.coordinator.local.LocalAgents;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload suite on a real cluster file system: one agent process per FUSE mount of one
 * GlusterFS volume, both roots the same directory of the volume, so every lock and file one agent
 * takes is seen by the other through its own client.
 */
class GlusterWorkloadsIT {
  private static final Pattern INCREMENT = Pattern.compile("data increment = (\\d+)");

  @TempDir Path work;
  List<Path> roots;
  LocalAgents agents;

  @BeforeEach
  void start() throws IOException {
    List<Path> mounts = GlusterMounts.require();
    String dir = "lockstep-it-" + UUID.randomUUID();
    Files.createDirectory(mounts.get(0).resolve(dir));
    roots = List.of(mounts.get(0).resolve(dir), mounts.get(1).resolve(dir));
    assertThat(roots.get(1)).as("both mounts show one volume").isDirectory();
    agents = LocalAgents.start(roots, work);
  }

  @AfterEach
  void stop() throws IOException {
    if (agents != null) {
      agents.close();
    }
    if (roots != null) {
      try (Stream<Path> s = Files.walk(roots.get(0))) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  @Test
  void pingPongBetweenTheMountsContendsAndAgreesWithCtdbOnCoherence() throws Exception {
    var o =
        ScenarioRuns.run(
            agents,
            work,
            "pp",
            "type: ping-pong\nio: read-write\nduration: 3s\nwarmup: 500ms",
            "[solo, all]");
    assertThat(o.run().get("errors")).isEmpty();
    assertThat(o.exitCode()).isZero();
    long allErrors = 0;
    double sumOfSolos = 0;
    // Real contention: the two rings are one ring, so the nodes alternate strictly and do the
    // same number of locks; had the locks not contended, each would run at its own solo pace.
    long ops1 = o.node("all", "node1").get("ops").asLong();
    long ops2 = o.node("all", "node2").get("ops").asLong();
    assertThat((double) Math.abs(ops1 - ops2))
        .as("lock counts %d vs %d", ops1, ops2)
        .isLessThanOrEqualTo(0.02 * Math.max(ops1, ops2));
    for (String node : List.of("node1", "node2")) {
      double solo = o.node("solo-" + node, node).get("throughput").asDouble();
      JsonNode together = o.node("all", node);
      assertThat(solo).isPositive();
      sumOfSolos += solo;
      assertThat(together.get("coherenceChecks").asLong()).isPositive();
      assertThat(o.node("solo-" + node, node).get("coherenceErrors").asLong())
          .as("one participant alone")
          .isZero();
      allErrors += together.get("coherenceErrors").asLong();
    }
    assertThat(o.step("all").get("aggregate").get("sumOfNodes").asDouble())
        .as("together vs the sum of solos")
        .isLessThan(sumOfSolos);
    // The same check by ctdb's own ping_pong -rw on the same two mounts: whatever it sees
    // (data increment 2 = coherent, anything else = not), Lockstep must report the same.
    List<Integer> increments = ctdbIncrements();
    boolean ctdbCoherent = !increments.isEmpty() && increments.stream().allMatch(i -> i == 2);
    if ("true".equals(System.getenv("LOCKSTEP_GLUSTER_COHERENT"))) {
      // scripts/ci/gluster-up.sh configured the volume for coherence (client caches off,
      // direct-io mounts): then ctdb must see increment 2 and Lockstep zero errors.
      assertThat(increments)
          .as("ctdb ping_pong -rw data increments on a coherent volume")
          .isNotEmpty()
          .containsOnly(2);
      assertThat(allErrors).as("Lockstep coherence errors on a coherent volume").isZero();
    }
    if (ctdbCoherent) {
      assertThat(allErrors).as("ctdb ping_pong saw increments %s", increments).isZero();
    } else {
      assertThat(allErrors).as("ctdb ping_pong saw increments %s", increments).isPositive();
    }
  }

  private List<Integer> ctdbIncrements() throws Exception {
    Path pingPong = Required.program("ping_pong", "ctdb");
    List<Process> ps = new ArrayList<>();
    for (Path root : roots) {
      ps.add(
          new ProcessBuilder(
                  "timeout",
                  "-s",
                  "INT",
                  "4",
                  pingPong.toString(),
                  "-rw",
                  root.resolve("ctdb.dat").toString(),
                  "3")
              .redirectErrorStream(true)
              .start());
    }
    List<Integer> increments = new ArrayList<>();
    for (Process p : ps) {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      Matcher m = INCREMENT.matcher(out);
      // ping_pong prints the increment whenever it changes: 1 while it runs alone (before
      // the other starts, after it stops), the participant count while both run. The
      // highest value is what it saw with both running.
      Integer highest = null;
      while (m.find()) {
        int v = Integer.parseInt(m.group(1));
        highest = highest == null ? v : Math.max(highest, v);
      }
      if (highest != null) {
        increments.add(highest);
      }
    }
    return increments;
  }

  @Test
  void lockFilesAndMetadataOnBothMountsAtOnceReportPerNodeRates() {
    var lf =
        ScenarioRuns.run(
            agents, work, "lf", "type: lock-files\nprocesses: 2\nfiles: 200\nlock: fcntl", "[all]");
    assertThat(lf.run().get("errors")).isEmpty();
    var md =
        ScenarioRuns.run(
            agents,
            work,
            "md",
            "type: metadata\ndir: md\nfiles: 200\ndepth: 1\nthreads: 2",
            "[all]");
    assertThat(md.run().get("errors")).isEmpty();
    for (String node : List.of("node1", "node2")) {
      JsonNode l = lf.node("all", node);
      assertThat(l.get("ops").asLong()).isEqualTo(400);
      assertThat(l.get("throughput").asDouble()).isPositive();
      JsonNode m = md.node("all", node);
      assertThat(m.get("operations"))
          .hasSize(4)
          .allSatisfy(op -> assertThat(op.get("rate").asDouble()).isPositive());
    }
    assertThat(lf.step("all").get("aggregate").get("sumOfNodes").asDouble()).isPositive();
  }

  @Test
  void anOpenFileLimitOnOneNodeIsReportedForThatNodeWithoutHanging() throws Exception {
    long node2 = agents.pids().get(1);
    Process limit =
        new ProcessBuilder("prlimit", "--pid", Long.toString(node2), "--nofile=300:300")
            .inheritIO()
            .start();
    assertThat(limit.waitFor(30, TimeUnit.SECONDS) && limit.exitValue() == 0)
        .as("prlimit on agent node2")
        .isTrue();
    long t0 = System.nanoTime();
    var o =
        ScenarioRuns.run(
            agents, work, "emfile", "type: lock-files\nprocesses: 1\nfiles: 500", "[all]");
    assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(120));
    assertThat(o.exitCode()).isEqualTo(1);
    assertThat(o.run().get("status").asText()).isEqualTo("failed");
    String errors = o.run().get("errors").toString();
    assertThat(errors)
        .contains("node node2")
        .contains("EMFILE")
        .contains("564 open files")
        .contains("hard limit is 300")
        .doesNotContain("node node1");
  }
}

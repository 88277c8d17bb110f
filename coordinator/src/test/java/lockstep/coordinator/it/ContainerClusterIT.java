package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import lockstep.agent.v1.DescribeResponse;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * Three agent containers (own root file system, own process table, host networking, distinct
 * loopback ports) sharing one file system (the GlusterFS volume in CI); the coordinator, in this
 * JVM through its command line (or as its own process, for a fault), runs experiments on them.
 *
 * <p>New workload types get their cluster test here: write the scenario, {@link #run} it and check
 * it with {@link #assertRanTogetherAndCleaned}.
 */
class ContainerClusterIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  static final int NODES = 3;

  static SharedDir shared;
  static AgentContainerCluster cluster;

  @TempDir Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    String[] image = new String[1];
    if (!MACHINE.checkOnce(
        () -> {
          Requirements.docker();
          image[0] = AgentImage.get();
        })) {
      return;
    }
    shared = SharedDir.create("lockstep-it");
    cluster = AgentContainerCluster.start(image[0], NODES, shared);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    Closing.closeEach(cluster, shared);
  }

  @Test
  void everyNodeIsItsOwnContainerOnTheSharedFileSystem() {
    Cli agents = Cli.run("agents", "--agents", String.join(",", cluster.addresses()));
    assertThat(agents.exitCode()).isZero();
    for (int i = 0; i < NODES; i++) {
      assertThat(agents.out())
          .containsPattern(
              cluster.addresses().get(i).replace(".", "\\.") + "\\s+node" + (i + 1) + "\\s");
      try (GrpcAgent a = GrpcAgent.connect(cluster.addresses().get(i))) {
        DescribeResponse d = a.describe();
        assertThat(d.getNodeName()).isEqualTo("node" + (i + 1));
        assertThat(d.getRoot()).isEqualTo(shared.containerRoot());
        // The agent is the container's first process: each node has its own process table.
        assertThat(d.getPid()).isEqualTo(1);
        if (shared.gluster()) {
          assertThat(d.getFsType()).isEqualTo("fuse.glusterfs");
        }
      }
    }
  }

  @Test
  void concurrentWritesFromEveryNode() throws IOException {
    RunRecord run =
        run(
            """
            name: it-write
            plan: [solo, all]
            workload: {type: write, file: "testFile.{node}", block-size: 64KiB, size: 8MiB, fdatasync: true}
            """,
            "--agents",
            String.join(",", cluster.addresses()));
    assertRanTogetherAndCleaned(run);
    eachResult(
        run,
        (s, r) ->
            assertThat(r.bytes()).as("bytes of %s in %s", r.node(), s.id()).isEqualTo(8L << 20));
  }

  @Test
  void lockFilesFromEveryNodeThroughTheInventory() throws IOException {
    StringBuilder inv = new StringBuilder("nodes:\n");
    for (int i = 0; i < NODES; i++) {
      inv.append("  - {name: node")
          .append(i + 1)
          .append(", address: \"")
          .append(cluster.addresses().get(i))
          .append("\", root: ")
          .append(shared.containerRoot())
          .append(", labels: {rack: r")
          .append(i % 2)
          .append("}}\n");
    }
    Path inventory = Files.writeString(work.resolve("inventory.yaml"), inv);
    Cli agents = Cli.run("agents", "--inventory", inventory.toString());
    assertThat(agents.exitCode()).isZero();
    assertThat(agents.out()).contains("node1", "node2", "node3");

    RunRecord run =
        run(
            """
            name: it-lock-files
            plan: [solo, all]
            workload: {type: lock-files, processes: 2, files: 100, lock: fcntl}
            """,
            "--inventory",
            inventory.toString());
    assertRanTogetherAndCleaned(run);
    for (StepRecord s : run.steps()) {
      s.results()
          .forEach(
              r -> assertThat(r.ops()).as("locks of %s in %s", r.node(), s.id()).isEqualTo(200));
    }
    assertThat(run.agents())
        .extracting(AgentRecord::labels)
        .containsExactly(
            java.util.Map.of("rack", "r0"),
            java.util.Map.of("rack", "r1"),
            java.util.Map.of("rack", "r0"));
  }

  @Test
  void pingPongAcrossEveryNodeContendsOnOneSharedFile() throws IOException {
    RunRecord run =
        run(
            """
            name: it-ping-pong
            plan: [solo, all]
            workload: {type: ping-pong, file: ping-pong.dat, processes: 1, lock: fcntl, io: read-write, duration: 2s, warmup: 300ms}
            """,
            "--agents",
            String.join(",", cluster.addresses()));
    assertThat(run.status()).isEqualTo(RunStatus.OK);
    StepRecord all = run.steps().get(run.steps().size() - 1);
    assertThat(all.id()).isEqualTo("all");
    assertThat(all.results())
        .extracting(NodeResult::node)
        .containsExactlyInAnyOrderElementsOf(cluster.names());
    // One ring over three containers: each holder waits for the next slot, so the nodes take
    // turns and do the same number of locks, and each does fewer than it did alone.
    long most = all.results().stream().mapToLong(NodeResult::ops).max().orElseThrow();
    long fewest = all.results().stream().mapToLong(NodeResult::ops).min().orElseThrow();
    assertThat((double) (most - fewest))
        .as("lock counts %d .. %d", fewest, most)
        .isLessThanOrEqualTo(0.05 * most);
    assertThat(run.analysis().nodes())
        .allSatisfy(n -> assertThat(n.concurrent()).isLessThan(n.solo()));
    for (NodeResult r : all.results()) {
      assertThat(r.coherenceChecks()).as("coherence checks on %s", r.node()).isPositive();
      if (!shared.gluster() || "true".equals(System.getenv("LOCKSTEP_GLUSTER_COHERENT"))) {
        assertThat(r.coherenceErrors()).as("coherence errors on %s", r.node()).isZero();
      }
    }
    assertThat(shared.leftovers()).as("files left on the shared file system").isEmpty();
    System.out.println(figures(run));
  }

  @Test
  void aPausedAgentContainerIsNoticedTheOthersAbortedAndItCleansUpWhenUnpaused() throws Exception {
    Path scenario =
        Files.writeString(
            work.resolve("paused.yaml"),
            "name: it-paused\n"
                + "plan: [all]\n"
                + "timeout: 10m\n"
                + "workload: {type: hot-lock, file: paused.dat, processes: 1, duration: 60s}\n");
    Coordinator c =
        Coordinator.start(
            work.resolve("coordinator"),
            Cli.runArgs(scenario, cluster.addresses(), work.resolve("results")));
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> c.out().contains("armed, starting together") || !c.process().isAlive());
      assertThat(c.process().isAlive()).as(c.err()).isTrue();
      await().pollDelay(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(5)).until(() -> true);
      DockerClient docker = DockerClientFactory.instance().client();
      String node3 = cluster.containers().get(2).getContainerId();
      long paused = System.nanoTime();
      docker.pauseContainerCmd(node3).exec();
      double exited;
      try {
        assertThat(c.process().waitFor(20, TimeUnit.SECONDS))
            .as("the coordinator exits within 20 s of the pause")
            .isTrue();
        exited = (System.nanoTime() - paused) / 1e9;
      } finally {
        docker.unpauseContainerCmd(node3).exec();
      }
      long unpaused = System.nanoTime();
      assertThat(c.process().exitValue()).isEqualTo(1);
      assertThat(c.err())
          .contains("lockstep: node node3: lost: no heartbeat")
          .doesNotContain("Exception");
      try (var files = Files.walk(work.resolve("results"))) {
        RunRecord run =
            ResultsStore.load(
                files
                    .filter(p -> p.getFileName().toString().equals(ResultsStore.RUN_FILE))
                    .findFirst()
                    .orElseThrow());
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.steps().get(0).results())
            .filteredOn(r -> !r.node().equals("node3"))
            .hasSize(2)
            .allSatisfy(r -> assertThat(r.status()).isEqualTo(RunStatus.ABORTED));
      }
      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> shared.leftovers().isEmpty());
      System.out.printf(
          "agent container paused mid-run: coordinator exit 1 after %.2f s; unpaused, its run ended"
              + " and the shared file system was clean %.2f s later%n",
          exited, (System.nanoTime() - unpaused) / 1e9);
    } finally {
      c.process().destroyForcibly();
    }
  }

  /** Runs a scenario with {@code lockstep run}; the run must succeed. */
  RunRecord run(String scenarioYaml, String... agentArgs) throws IOException {
    Path scenario = Files.writeString(work.resolve("scenario.yaml"), scenarioYaml);
    Path out = work.resolve("results");
    String[] args = new String[agentArgs.length + 4];
    args[0] = "run";
    args[1] = scenario.toString();
    System.arraycopy(agentArgs, 0, args, 2, agentArgs.length);
    args[args.length - 2] = "--out";
    args[args.length - 1] = out.toString();
    Cli cli = Cli.run(args);
    assertThat(cli.exitCode()).as("exit code of lockstep run; stderr: %s", cli.err()).isZero();
    try (var files = Files.walk(out)) {
      Path json =
          files
              .filter(p -> p.getFileName().toString().equals(ResultsStore.RUN_FILE))
              .findFirst()
              .orElseThrow();
      return ResultsStore.load(json);
    }
  }

  /**
   * Every node present in the run and in every solo step, all nodes ran at once in the "all" step
   * (their measured intervals overlap), every node has solo and concurrent figures, and nothing is
   * left on the shared file system.
   */
  void assertRanTogetherAndCleaned(RunRecord run) throws IOException {
    assertThat(run.status()).isEqualTo(RunStatus.OK);
    assertThat(run.agents())
        .extracting(AgentRecord::node)
        .containsExactlyElementsOf(cluster.names());
    assertThat(run.steps())
        .extracting(StepRecord::id)
        .containsExactly("solo-node1", "solo-node2", "solo-node3", "all");
    StepRecord all = run.steps().get(run.steps().size() - 1);
    assertThat(all.results())
        .extracting(NodeResult::node)
        .containsExactlyInAnyOrderElementsOf(cluster.names());
    assertThat(all.results()).allMatch(NodeResult::ok);
    long lastStart =
        all.results().stream().mapToLong(NodeResult::firstOpUnixNanos).max().orElseThrow();
    long firstEnd = all.results().stream().mapToLong(NodeResult::endUnixNanos).min().orElseThrow();
    assertThat(lastStart).as("every node started before any node finished").isLessThan(firstEnd);
    eachResult(
        run,
        (s, r) ->
            assertThat(r.filesRemoved())
                .as("files removed by %s in %s", r.node(), s.id())
                .isPositive());
    assertThat(run.analysis().nodes())
        .hasSize(NODES)
        .allSatisfy(
            n -> {
              assertThat(n.solo()).isPositive();
              assertThat(n.concurrent()).isPositive();
            });
    assertThat(shared.leftovers()).as("files left on the shared file system").isEmpty();
    System.out.println(figures(run));
  }

  static String figures(RunRecord run) {
    return run.name()
        + " on "
        + (shared.gluster() ? "GlusterFS" : "a host directory")
        + ": "
        + run.analysis().nodes().stream()
            .map(
                n ->
                    String.format(
                        Locale.ROOT,
                        "%s solo %.1f, all %.1f %s (%.0f%%)",
                        n.node(),
                        n.solo(),
                        n.concurrent(),
                        run.unit(),
                        100 * n.efficiency()))
            .collect(Collectors.joining("; "))
        + String.format(
            Locale.ROOT,
            "; aggregate efficiency %.0f%%, max start skew %.2f ms",
            100 * run.analysis().aggregateEfficiency(),
            run.analysis().maxAbsSkewMillis());
  }

  static List<String> names() {
    return cluster.names();
  }

  /** Checks every node's result in every step of the run. */
  private static void eachResult(RunRecord run, BiConsumer<StepRecord, NodeResult> check) {
    for (StepRecord s : run.steps()) {
      s.results().forEach(r -> check.accept(s, r));
    }
  }
}

package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.lab.Stack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Seed 1 on real GFS2 (corosync, dlm_controld with plock_ownership=1, two TCG guests): fcntl
 * ping-pong pinned at plock_rate_limit=100 and named as a rate limit with its setting, agreeing
 * with ctdb's ping_pong and lockbench (a C program with the same calls) in the same guest; with the
 * limit off the rate is free and {@code compare} names the changed setting; flock goes through
 * glocks and is not limited; lock-files at the seed's shape either reaches the limit or the verdict
 * names its bound.
 */
@OnLab(stacks = {Stack.GFS2})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabSeed1IT extends LabTest {
  private static final double LIMIT = 100;
  private static final String TWO = TestLab.first(2);
  // The peers' file, made before any run of this class and kept to its end. dlm_controld
  // (plock_ownership=1) leaves a file both nodes have just locked unowned: every lock of it goes
  // through corosync (~180 locks/s here) until it has been idle for drop_resources_age (10 s). A
  // file created right after a run takes that run's freed inode, and its lock resource, often
  // enough: CI once measured ping_pong at 183 locks/s with the limit off on such a file.
  private static final String PEER_FILE = "/mnt/gfs2/seed1-peer.dat";
  private static RunRecord limited;
  private static RunRecord unlimited;

  @BeforeAll
  static void peerFile() throws Exception {
    if (lab != null) {
      lab.must("node1", "touch " + PEER_FILE);
    }
  }

  @AfterAll
  static void peerFileGone() throws Exception {
    if (lab != null) {
      lab.must("node1", "rm -f " + PEER_FILE);
    }
  }

  private static String pingPong(String duration) {
    return pingPong(duration, "1s");
  }

  private static String pingPong(String duration, String warmup) {
    return "name: lab-seed1-ping-pong\nplan: [solo, all]\nworkload: {type: ping-pong, file:"
        + " seed1-pp.dat, processes: 1, lock: fcntl, duration: "
        + duration
        + ", warmup: "
        + warmup
        + "}\n";
  }

  @Test
  @Order(1)
  void atTheLimitTheRateIsTheLimitAndTheVerdictNamesTheSetting() throws Exception {
    TestLab.set("plock_rate_limit=100");
    // 20 s: dlm_controld lets 100 locks through and then pauses for the rest of the second, so a
    // window's count is off by up to one burst (100 locks): 5% of 20 s.
    limited = lab.run("gfs2", pingPong("20s"), work, "--nodes", TWO);
    assertOkWithSettings(
        limited,
        Map.of("dlm_controld:plock_rate_limit", "100", "dlm_controld:plock_ownership", "1"),
        "corosync:totem.token",
        "host:virtualization");
    assertThat(limited.agents()).allSatisfy(a -> assertThat(a.labels()).containsKey("lab-accel"));
    for (NodeResult n : solo(limited)) {
      assertThat(n.throughput()).as("solo %s at the limit", n.node()).isBetween(60.0, 110.0);
      // the UDP probe's best delay under emulation: 0.3-1.8 ms, 4.0 once in CI (gRPC's 4-17 ms)
      assertThat(n.clockUncertaintyMillis()).as("clock of %s", n.node()).isLessThan(5.0);
    }
    // the UDP probe reaches the agents through the slirp forwards
    assertThat(TestLab.clockProbes("gfs2"))
        .containsEntry("node1", "udp")
        .containsEntry("node2", "udp");
    Finding rate = finding(limited, "rate-limit");
    assertThat(rate.message()).contains("plock_rate_limit is 100 (dlm_controld)");
    assertThat(rate.headline()).isTrue();
  }

  @Test
  @Order(2)
  void atTheLimitLockstepAgreesWithPingPongAndLockbench() throws Exception {
    // peer, Lockstep, peer: the rate at the limit drifts between minutes under emulation (the
    // peers gave 94.5 and 99.0 in one run, 74.8 and 76.9 in another), so Lockstep is compared
    // with the two peers around it
    double pingPong =
        TestLab.pingPong(
            lab.must("node1", "timeout -s INT 20 ping_pong " + PEER_FILE + " 2; true"));
    RunRecord between =
        lab.run(
            "gfs2",
            pingPong("20s").replace("plan: [solo, all]", "plan: [solo]"),
            work,
            "--nodes",
            TestLab.first(1));
    double lockstep = soloRate(between, "node1");
    double lockbench = TestLab.lockbench(lab.must("node1", "lockbench fcntl " + PEER_FILE + " 20"));
    double peers = (pingPong + lockbench) / 2;
    System.out.printf(
        Locale.ROOT,
        "seed 1 at plock_rate_limit=100, node1 solo: ping_pong %.1f, lockstep %.1f, lockbench %.1f"
            + " locks/s (lockstep / peers %.2fx; first run %.1f)%n",
        pingPong,
        lockstep,
        lockbench,
        lockstep / peers,
        soloRate(limited, "node1"));
    assertThat(lockstep / peers).as("lockstep / peers around it").isCloseTo(1.0, within(0.1));
  }

  @Test
  @Order(3)
  void withTheLimitOffTheRateIsFreeAndCompareNamesTheSetting() throws Exception {
    TestLab.set("plock_rate_limit=0");
    // A 5 s warm-up: a fresh worker JVM compiles its loop for seconds on a guest's one emulated
    // CPU (node1 solo, A B C D D C B A on 2026-12-02: 4,788-4,824 locks/s after 1 s, 5,523-6,244
    // after 5 s, ping_pong 6,849-7,048); at the limit the rate is the limit's either way
    unlimited = lab.run("gfs2", pingPong("5s", "5s"), work, "--nodes", TWO);
    assertOkWithSettings(unlimited, Map.of("dlm_controld:plock_rate_limit", "0"));
    for (NodeResult n : solo(unlimited)) {
      assertThat(n.throughput()).as("solo %s, no limit", n.node()).isGreaterThan(10 * LIMIT);
    }
    assertThat(unlimited.analysis().findings()).noneMatch(f -> f.code().equals("rate-limit"));
    Cli c = Cli.run("compare", lab.file(limited).toString(), lab.file(unlimited).toString());
    assertThat(c.exitCode()).isZero();
    assertThat(c.out()).contains("dlm_controld:plock_rate_limit 100 -> 0 on every node");
  }

  @Test
  @Order(4)
  void withTheLimitOffThePeersRunBesideLockstep() {
    // A figure for the closing note and docs/results.md, not a test of speed: ping-pong's rate
    // here is the guests' (software-emulated CPUs) and dlm_controld's.
    double lockstep = soloRate(unlimited, "node1");
    double pingPong =
        TestLab.pingPong(lab.must("node1", "timeout -s INT 5 ping_pong " + PEER_FILE + " 2; true"));
    double lockbench = TestLab.lockbench(lab.must("node1", "lockbench fcntl " + PEER_FILE + " 5"));
    System.out.printf(
        Locale.ROOT,
        "seed 1 with plock_rate_limit=0, node1 solo: lockstep %.0f, ping_pong %.0f (%.2fx),"
            + " lockbench %.0f (%.2fx) locks/s%n",
        lockstep,
        pingPong,
        lockstep / pingPong,
        lockbench,
        lockstep / lockbench);
    assertThat(pingPong).isGreaterThan(10 * LIMIT);
    assertThat(lockbench).isGreaterThan(10 * LIMIT);
  }

  @Test
  @Order(5)
  void flockGoesThroughGlocksAndIsNotLimited() throws Exception {
    TestLab.set("plock_rate_limit=100");
    RunRecord flock =
        lab.run(
            "gfs2",
            "name: lab-seed1-flock\nplan: [solo, all]\nworkload: {type: hot-lock, file:"
                + " seed1-flock.dat, processes: 2, lock: flock, duration: 4s}\n",
            work,
            "--nodes",
            TWO);
    assertThat(flock.status()).isEqualTo(RunStatus.OK);
    for (StepRecord s : flock.steps()) {
      for (NodeResult n : s.results()) {
        assertThat(n.throughput()).as("flock %s %s", s.id(), n.node()).isGreaterThan(10 * LIMIT);
      }
    }
    assertThat(flock.analysis().findings()).noneMatch(f -> f.code().equals("rate-limit"));
  }

  @Test
  @Order(6)
  void lockFilesAtTheSeedsShapeReachesTheLimitOrTheVerdictNamesItsBound() throws Exception {
    RunRecord files =
        lab.run(
            "gfs2",
            "name: lab-seed1-lock-files\nplan: [solo, all]\nworkload: {type: lock-files,"
                + " processes: 2, files: 25, lock: fcntl}\n",
            work,
            "--nodes",
            TWO);
    assertThat(files.status()).isEqualTo(RunStatus.OK);
    List<String> bounds = List.of("rate-limit", "cpu-bound", "storage-bound", "waiting");
    List<Finding> said =
        files.analysis().findings().stream().filter(f -> bounds.contains(f.code())).toList();
    said.forEach(f -> System.out.println("lock-files on GFS2: " + f.code() + ": " + f.message()));
    assertThat(said).as("the verdict names what bounds lock-files").isNotEmpty();
  }

  private static List<NodeResult> solo(RunRecord run) {
    return run.steps().stream()
        .filter(s -> s.nodes().size() == 1)
        .flatMap(s -> s.results().stream())
        .toList();
  }

  private static double soloRate(RunRecord run, String node) {
    return solo(run).stream()
        .filter(n -> n.node().equals(node))
        .findFirst()
        .orElseThrow()
        .throughput();
  }

  private static Finding finding(RunRecord run, String code) {
    return run.analysis().findings().stream()
        .filter(f -> f.code().equals(code))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + code + " finding in " + run.analysis()));
  }
}

package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;
import lockstep.lab.Stack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * NFS as most users lock files on it: the kernel's nfsd on the lab's server node exporting its
 * private (throttled) disk, node1 and node2 mounting it. fcntl ping-pong with read-write across the
 * two clients, on NFSv4.2 and on NFSv3 (NLM: lockd, statd): the ring holds (checks, no error), each
 * hand-over goes through the server so together each node keeps a fraction of its solo rate, and
 * Lockstep's solo rate agrees with ctdb's {@code ping_pong -rw} run before and after it in the same
 * guest. Then the lock gaps NFS is known for: with {@code local_lock=all} or {@code nolock} on v3
 * every client grants its own locks, the workers measure coherence errors (or locks that never
 * contend) and the run is INVALID naming the option; on v4 Linux ignores {@code local_lock} (the
 * mount reads back {@code none}) and the ring holds. flock over NFS is the server's POSIX lock. The
 * server runs a watch-only agent: seed 2's writes onto its throttled disk are storage-bound on its
 * device. Failover as users meet it: nfsd restarted (its grace bounds the clients' stall), a v4
 * client killed (the server's lease frees its locks), a v3 client killed (nothing but its return
 * does). The v3 kill comes right after the v3 ring, so that it needs no remount of its own.
 */
@OnLab(stacks = Stack.NFS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabNfsIT extends LabTest {
  private static final String TWO = TestLab.first(2);
  // the peer's own file, made once: a run's file is removed and made again by its workers
  private static final String PEER_FILE = "/mnt/nfs/nfs-peer.dat";
  private static final String RING =
      "name: lab-nfs-ring\nplan: [solo, all]\nworkload: {type: ping-pong, file: nfs-ring.dat,"
          + " processes: 1, lock: fcntl, io: read-write, duration: 8s, warmup: 2s}\n";
  private static final String RING_TOGETHER =
      "name: lab-nfs-ring\nplan: [all]\nworkload: {type: ping-pong, file: nfs-ring.dat,"
          + " processes: 1, lock: fcntl, io: read-write, duration: 6s, warmup: 2s}\n";
  private static RunRecord v42;
  private static final int SEED2_DISK_MBPS = 4;
  // the seed's dd: 4 KiB blocks, conv=fdatasync; 24 MiB is 6 s alone at 4 MB/s
  private static final String SEED2 =
      "name: lab-nfs-seed2\nplan: [solo, all]\nworkload: {type: write, file: \"seed2.{node}\","
          + " block-size: 4KiB, size: 24MiB, fdatasync: true}\n";
  private static final String DD = "dd if=/dev/zero bs=4k count=6144 conv=fdatasync 2>&1";

  @BeforeAll
  static void peerFile() {
    if (lab != null) {
      lab.must("node1", "touch " + PEER_FILE);
    }
  }

  @AfterAll
  static void peerFileGone() {
    if (lab != null) {
      lab.must("node1", "rm -f " + PEER_FILE);
    }
  }

  @Test
  @Order(1)
  void onNfsV42TheRingHoldsThroughTheServerAndLockstepAgreesWithPingPong() throws Exception {
    v42 = ringWithPeers("4.2");
  }

  @Test
  @Order(2)
  void onNfsV3ThroughNlmTheRingHoldsAndCompareNamesTheVersion() throws Exception {
    TestLab.set("nfs_vers=3");
    RunRecord v3 = ringWithPeers("3");
    Cli c = Cli.run("compare", lab.file(v42).toString(), lab.file(v3).toString());
    assertThat(c.exitCode()).isZero();
    assertThat(c.out()).contains("nfs:vers 4.2 -> 3 on every node");
  }

  @Test
  @Order(4)
  void onNfsV3WithLocalLockAllEachClientGrantsItsOwnLocksAndTheRunIsInvalid() throws Exception {
    TestLab.set("nfs_vers=3", "nfs_local_lock=all");
    RunRecord run = lab.run("nfs", RING_TOGETHER, work, "--nodes", TWO);
    assertNodeLocal(run, Map.of("nfs:vers", "3", "nfs:local_lock", "all"), "local_lock=all");
  }

  @Test
  @Order(5)
  void onNfsV3WithNolockNoLockReachesTheServerAndTheRunIsInvalidNamingNolock() throws Exception {
    TestLab.set("nfs_vers=3", "nfs_local_lock=none", "nfs_lock=off");
    RunRecord run = lab.run("nfs", RING_TOGETHER, work, "--nodes", TWO);
    // the kernel reads nolock back with local_lock=all
    assertNodeLocal(run, Map.of("nfs:vers", "3", "nfs:lock", "off"), "mounted with nolock");
  }

  @Test
  @Order(6)
  void onNfsV4LinuxIgnoresLocalLockAndTheRingHolds() throws Exception {
    TestLab.set("nfs_vers=4.2", "nfs_lock=on", "nfs_local_lock=all");
    RunRecord run = lab.run("nfs", RING_TOGETHER, work, "--nodes", TWO);
    // asked for local_lock=all, the v4 mount reads back none (Linux 6.1, fs/nfs/fs_context.c):
    // its locks go to the server, and the ring holds
    assertOkWithSettings(run, Map.of("nfs:vers", "4.2", "nfs:local_lock", "none"));
    assertRingHolds(run);
  }

  @Test
  @Order(7)
  void flockOverNfsIsTheServersPosixLockAndContendsAcrossClients() throws Exception {
    TestLab.set("nfs_local_lock=none");
    RunRecord run =
        lab.run(
            "nfs",
            "name: lab-nfs-flock\nplan: [solo, all]\nworkload: {type: hot-lock, file:"
                + " nfs-flock.dat, processes: 1, lock: flock, duration: 6s}\n",
            work,
            "--nodes",
            TWO);
    assertOkWithSettings(run, Map.of("nfs:vers", "4.2", "nfs:local_lock", "none"));
    for (String node : List.of("node1", "node2")) {
      double efficiency = together(run, node) / solo(run, node);
      System.out.printf(
          Locale.ROOT,
          "NFSv4.2 flock hot-lock %s: solo %.1f, together %.1f locks/s (%.2fx)%n",
          node,
          solo(run, node),
          together(run, node),
          efficiency);
      // one lock at the server, handed between the clients: each keeps well under its solo rate
      assertThat(efficiency).as("%s together / solo", node).isLessThan(0.8);
    }
    assertThat(run.analysis().findings())
        .anySatisfy(
            f ->
                assertThat(f.message())
                    .contains("flock goes there as a whole-file POSIX lock", "since 2.6.12"));
  }

  /**
   * Seed 2's dd shape (4 KiB writes, fdatasync) from two clients onto the server's disk, throttled
   * as the seed's SAN was: the clients share one disk's budget, together each keeps well under its
   * solo rate, and the server's watch-only agent puts its device on the run's time axis, so the
   * bottleneck named is the server's device. dd run the same way agrees, and each client's own disk
   * (the control, as throttled) does not halve.
   */
  @Test
  @Order(8)
  void seed2sWritesOnTheServersThrottledDiskHalveAndTheWatchOnlyServerIsTheBottleneck()
      throws Exception {
    TestLab.set("disk-mbps=" + SEED2_DISK_MBPS);
    RunRecord run = lab.run("nfs", SEED2, work, "--nodes", TWO);
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    String server = server();
    assertThat(run.watchers()).extracting(AgentRecord::node).containsExactly(server);
    assertThat(run.watchers().get(0).clusterSettings())
        .as("the server's own settings, from its agent")
        .containsEntry("nfsd:threads", "8")
        .containsEntry("nfs.conf:nfsd.grace-time", "15")
        .containsEntry("nfs.conf:nfsd.lease-time", "15")
        .containsEntry("lockd:nlm_grace_period", "15");
    for (StepRecord s : run.steps()) {
      assertThat(s.nodes()).doesNotContain(server);
      assertThat(s.watched())
          .singleElement()
          .satisfies(
              w -> {
                assertThat(w.node()).isEqualTo(server);
                assertThat(w.resources()).as("the server's samples in %s", s.id()).isNotNull();
              });
    }
    double solo1 = solo(run, "node1");
    double solo2 = solo(run, "node2");
    double all = run.steps().get(2).aggregate().throughput();
    System.out.printf(
        Locale.ROOT,
        "seed 2 on NFS, the server's disk at %d MB/s: solo %.2f and %.2f MB/s, together %.2f and"
            + " %.2f (%.2fx, %.2fx), %.2f MB/s in all%n",
        SEED2_DISK_MBPS,
        solo1,
        solo2,
        together(run, "node1"),
        together(run, "node2"),
        together(run, "node1") / solo1,
        together(run, "node2") / solo2,
        all);
    for (String node : List.of("node1", "node2")) {
      // a fixed amount each: whoever ends first leaves the other the whole disk, so above half
      assertThat(together(run, node) / solo(run, node))
          .as("%s together / solo", node)
          .isLessThan(0.8);
    }
    assertThat(all).as("together, one disk's budget").isLessThan(1.2 * Math.max(solo1, solo2));
    Finding bound =
        run.analysis().findings().stream()
            .filter(f -> "all".equals(f.step()) && f.message().startsWith("Step all: "))
            .filter(f -> !f.code().equals("page-cache"))
            .findFirst()
            .orElseThrow();
    assertThat(bound.code()).isEqualTo("storage-bound");
    assertThat(bound.message())
        .containsPattern("node " + server + "'s device vd[a-z] busy")
        .contains("a watch-only node: it ran no workload");

    // dd the same way, alone and together (a barrier through the export: each client writes its
    // mark into a file made before, and reads both until set; NFS's close-to-open makes an open
    // see the other's write); then each client's own disk, the control
    double lockstepAlone = solo1;
    lab.must("node1", "for n in node1 node2; do : > /mnt/nfs/seed2-ready.$n; done");
    double ddAlone = TestLab.ddMBps(lab.must("node1", DD + " of=/mnt/nfs/seed2-dd.node1"));
    Map<String, Double> ddTogether =
        TestLab.ddMBpsByNode(
            lab.must(
                TWO,
                "echo 1 > /mnt/nfs/seed2-ready.$(hostname) && timeout 60 sh -c 'until grep -q 1"
                    + " /mnt/nfs/seed2-ready.node1 && grep -q 1 /mnt/nfs/seed2-ready.node2; do"
                    + " sleep 0.01; done' && "
                    + DD
                    + " of=/mnt/nfs/seed2-dd.$(hostname)"));
    double privAlone = TestLab.ddMBps(lab.must("node1", DD + " of=/mnt/priv/seed2-dd"));
    Map<String, Double> privTogether =
        TestLab.ddMBpsByNode(lab.must(TWO, DD + " of=/mnt/priv/seed2-dd"));
    lab.must(TWO, "rm -f /mnt/nfs/seed2-dd.* /mnt/nfs/seed2-ready.* /mnt/priv/seed2-dd");
    System.out.printf(
        Locale.ROOT,
        "seed 2 dd on NFS: alone %.2f MB/s (lockstep %.2f, %.2fx), together %s; each client's own"
            + " disk alone %.2f, together %s%n",
        ddAlone,
        lockstepAlone,
        lockstepAlone / ddAlone,
        ddTogether,
        privAlone,
        privTogether);
    assertThat(lockstepAlone / ddAlone).as("lockstep / dd alone").isBetween(0.7, 1.3);
    assertThat(ddTogether.values()).allSatisfy(v -> assertThat(v / ddAlone).isLessThan(0.8));
    assertThat(ddTogether.values().stream().mapToDouble(Double::doubleValue).sum())
        .isLessThan(1.25 * ddAlone);
    assertThat(privTogether.values())
        .allSatisfy(v -> assertThat(v / privAlone).isGreaterThan(0.85));
  }

  /**
   * The server's nfsd stopped for 3 s and started again mid-run: the clients reclaim their locks in
   * its grace period, in which no new lock is granted, so each client's locks stall for about the
   * outage and the grace (plus the client's wait between tries); the verdict names the grace time,
   * as the server's watch-only agent read it.
   */
  @Test
  @Order(9)
  void aRestartedServersGracePeriodBoundsEachClientsStall() throws Exception {
    TestLab.set("disk-mbps=20");
    String server = server();
    RunRecord run =
        lab.run(
            "nfs",
            "name: lab-nfs-restart\nplan: [all]\nworkload: {type: hot-lock, file: nfs-restart.dat,"
                + " processes: 1, lock: fcntl, duration: 50s}\nfaults: [{at: 8s, node: "
                + server
                + ", action: restart, for: 3s}]\n",
            work,
            "--nodes",
            TWO);
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    StepRecord s = run.steps().get(0);
    FaultRecord f = s.faults().get(0);
    assertThat(f.happened()).isTrue();
    assertThat(f.victimLost()).as("the server's agent stays").isFalse();
    assertThat(f.ending()).startsWith("nfsd started again (grace 15 s");
    int grace = 15;
    for (FaultEffect e : run.analysis().faultEffects()) {
      System.out.printf(
          Locale.ROOT,
          "NFSv4.2 server restart (nfsd down 3 s, grace %d s): %s's locks stalled %.2f s (from"
              + " %.2f s to %.2f s; the fault at %.2f s)%n",
          grace,
          e.survivor(),
          e.stallSeconds(),
          e.stallFromSeconds(),
          e.stallToSeconds(),
          e.faultAtSeconds());
      assertThat(e.resumed()).as("%s's locks came back", e.survivor()).isTrue();
      // the outage and the grace at least; at most twice both, plus the client's wait between
      // two tries
      assertThat(e.stallToSeconds() - e.faultAtSeconds())
          .as("%s's stall after the restart began", e.survivor())
          .isBetween(3.0 + grace - 1, 2 * (3.0 + grace) + 5);
    }
    assertThat(run.analysis().faultEffects())
        .extracting(FaultEffect::survivor)
        .containsExactlyInAnyOrder("node1", "node2");
    assertThat(run.analysis().findings())
        .filteredOn(x -> x.code().equals("fault-stall"))
        .hasSize(2)
        .allSatisfy(
            x ->
                assertThat(x.message())
                    .contains(
                        "after " + server + " restarted its file service",
                        "grace time 15 s, nfs.conf's grace-time"));
  }

  /** The lab's NFS server: the node after the clients. */
  private static String server() {
    return "node" + (lab.nodes + 1);
  }

  @Test
  @Order(10)
  void aKilledV4ClientsLocksComeFreeWithTheServersLease() throws Exception {
    TestLab.set("nfs_vers=4.2", "nfs_local_lock=none", "nfs_lock=on");
    // The waiter: node1 blocked in fcntl(F_SETLKW) on a byte node2's process holds when node2 is
    // killed; it prints the wall clock when the server grants it. The ring's node1 waits the same
    // way on the byte node2's worker holds: a ring's node always holds one.
    lab.holdByteZero("node2", PEER_FILE);
    lab.waitOnByteZero("node1", PEER_FILE, "/root/nfs-peer.log");
    RunRecord run =
        lab.run(
            "nfs",
            "name: lab-nfs-kill\nplan: [all]\nworkload: {type: ping-pong, file: nfs-kill.dat,"
                + " processes: 1, lock: fcntl, duration: 55s}\nfaults: [{at: 10s, node: node2,"
                + " action: kill}]\n",
            work,
            "--nodes",
            TWO);
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    StepRecord s = run.steps().get(0);
    assertThat(s.results()).extracting(NodeResult::node).containsExactly("node1");
    FaultRecord f = s.faults().get(0);
    assertThat(f.happened()).isTrue();
    assertThat(f.victimLost()).isTrue();
    assertThat(f.recovery()).startsWith("restarted, rejoined");
    FaultEffect e = run.analysis().faultEffects().get(0);
    assertThat(e.survivor()).isEqualTo("node1");
    assertThat(e.resumed()).as("node1's locks came back").isTrue();
    String lease =
        run.agents().stream()
            .filter(a -> a.node().equals("node1"))
            .findFirst()
            .orElseThrow()
            .clusterSettings()
            .get("nfs:lease_time");
    assertThat(lease).as("the lease time node1's mount learnt").isEqualTo("15");
    double killOnNode1 = f.begunUnixNanos() / 1e9 + s.results().get(0).clockOffsetMillis() / 1e3;
    double peer =
        LabFaultIT.granted(lab.must("node1", "cat /root/nfs-peer.log"), killOnNode1) - killOnNode1;
    double ours = e.stallToSeconds() - e.faultAtSeconds();
    System.out.printf(
        Locale.ROOT,
        "NFSv4.2 client kill: node1's locks came back %.2f s after the kill (Lockstep; its stall"
            + " %.2f s), %.2f s (a waiter on node2's lock); lease %s s; recovery: %s%n",
        ours,
        e.stallSeconds(),
        peer,
        lease,
        f.recovery());
    // the server drops the silent client's state once its lease has run out and a lock conflicts
    // (its laundromat looks once a lease period): the lease at least, twice it at most, plus the
    // client's wait between two tries (measured: 16.75 s, the waiter 16.78 s, 2026-12-07)
    assertThat(ours).as("node1's stall after the kill").isBetween(15.0 - 1, 2 * 15.0 + 5);
    assertThat(ours / peer)
        .as("Lockstep's time to come back over the waiter's")
        .isCloseTo(1.0, within(0.10));
    Finding head = run.analysis().findings().get(0);
    assertThat(head.code()).isEqualTo("fault-stall");
    assertThat(head.message())
        .startsWith("node1's locks stalled ")
        .contains("after node2 was killed", "lease time 15 s");
  }

  /**
   * On NFSv3 nothing times a lost client's locks out: node2 killed mid-ring holds its byte at the
   * server's lockd until it comes back. The ring's node1 (trying, not blocking, so that its run
   * ends) never gets past it in the step; the lab then boots node2 again, and its rpc.statd's
   * SM_NOTIFY at the remount makes the server drop node2's old locks: a plain waiter on node1 is
   * granted only then.
   */
  @Test
  @Order(3)
  void aKilledV3ClientsLocksStayUntilItComesBackAndItsStatdNotifiesTheServer() throws Exception {
    TestLab.set("nfs_vers=3", "nfs_local_lock=none", "nfs_lock=on");
    lab.holdByteZero("node2", PEER_FILE);
    lab.waitOnByteZero("node1", PEER_FILE, "/root/nfs-peer3.log");
    RunRecord run =
        lab.run(
            "nfs",
            "name: lab-nfs-kill-v3\nplan: [all]\nworkload: {type: ping-pong, file: nfs-kill3.dat,"
                + " processes: 1, lock: fcntl, lock-wait: try, duration: 30s}\nfaults: [{at: 8s,"
                + " node: node2, action: kill}]\n",
            work,
            "--nodes",
            TWO);
    double returned = System.currentTimeMillis() / 1e3;
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    StepRecord s = run.steps().get(0);
    NodeResult node1 = s.results().get(0);
    assertThat(node1.node()).isEqualTo("node1");
    FaultRecord f = s.faults().get(0);
    assertThat(f.victimLost()).isTrue();
    assertThat(f.recovery()).startsWith("restarted, rejoined");
    FaultEffect e = run.analysis().faultEffects().get(0);
    assertThat(e.resumed()).as("node1's ring came back within the step").isFalse();
    assertThat(e.stallToSeconds() - e.faultAtSeconds())
        .as("node1 stood still from the kill to its run's end")
        .isGreaterThan(30 - 8 - 2.0);
    double offset = node1.clockOffsetMillis() / 1e3;
    double killOnNode1 = f.begunUnixNanos() / 1e9 + offset;
    // node1's run lasted its 30 s at least (warm-up before): its end, not its last lock, which
    // was at the kill
    double stepEndOnNode1 = s.intendedStartUnixNanos() / 1e9 + 30 + offset;
    double granted = LabFaultIT.granted(lab.must("node1", "cat /root/nfs-peer3.log"), killOnNode1);
    System.out.printf(
        Locale.ROOT,
        "NFSv3 client kill: node1's ring stood still %.2f s to its run's end; a waiter on node2's"
            + " lock was granted %.2f s after the kill, %.2f s after the run's 30 s; recovery:"
            + " %s%n",
        e.stallSeconds(),
        granted - killOnNode1,
        granted - stepEndOnNode1,
        f.recovery());
    assertThat(granted)
        .as("the waiter is granted only once node2 is back (after the run, in its recovery)")
        .isGreaterThan(stepEndOnNode1);
    assertThat(granted).as("... and by the time it was back").isLessThan(returned + offset + 5);
    assertThat(run.analysis().findings().get(0).message())
        .startsWith("node1's locks stalled ")
        .contains(
            "they had not come back when its run ended",
            "until that client comes back and its rpc.statd notifies the server");
  }

  /**
   * ctdb's ping_pong -rw on node1, the ring solo and together, ping_pong again: the ring holds, the
   * hand-over through the server costs the pair most of its solo rate, and Lockstep's solo rate on
   * node1 lies within 25% of the two peer runs around it: from 0.75x the lower to 1.25x the higher
   * (the peer's own rate moved from 229 to 145 locks/s between two minutes on these emulated
   * guests, 2026-12-07).
   */
  private static RunRecord ringWithPeers(String vers) throws Exception {
    String peer = "timeout -s INT 10 ping_pong -rw " + PEER_FILE + " 2; true";
    double before = TestLab.pingPong(lab.must("node1", peer));
    RunRecord run = lab.run("nfs", RING, work, "--nodes", TWO);
    double after = TestLab.pingPong(lab.must("node1", peer));
    assertOkWithSettings(
        run, Map.of("nfs:vers", vers, "nfs:local_lock", "none", "nfs:lock", "on"), "nfs:proto");
    assertRingHolds(run);
    double lockstep = solo(run, "node1");
    double peers = (before + after) / 2;
    System.out.printf(
        Locale.ROOT,
        "NFS v%s fcntl ping-pong read-write, node1 solo: ping_pong -rw %.1f, lockstep %.1f,"
            + " ping_pong -rw %.1f locks/s (lockstep / peers %.2fx); together node1 %.1f, node2"
            + " %.1f (%.2fx, %.2fx)%n",
        vers,
        before,
        lockstep,
        after,
        lockstep / peers,
        together(run, "node1"),
        together(run, "node2"),
        together(run, "node1") / solo(run, "node1"),
        together(run, "node2") / solo(run, "node2"));
    assertThat(lockstep)
        .as("lockstep between 0.75x and 1.25x of the ping_pong runs around it")
        .isBetween(0.75 * Math.min(before, after), 1.25 * Math.max(before, after));
    for (String node : List.of("node1", "node2")) {
      // each lock's hand-over goes to the server and back: measured 0.20x on v4.2
      assertThat(together(run, node) / solo(run, node))
          .as("%s together / solo", node)
          .isLessThan(0.5);
    }
    return run;
  }

  /** Every node checked the ring in every step, no check failed, and the run is valid. */
  private static void assertRingHolds(RunRecord run) {
    for (StepRecord s : run.steps()) {
      for (NodeResult n : s.results()) {
        assertThat(n.coherenceChecks()).as("checks on %s in %s", n.node(), s.id()).isPositive();
        assertThat(n.coherenceErrors()).as("errors on %s in %s", n.node(), s.id()).isZero();
      }
    }
    assertThat(run.analysis().findings()).noneMatch(f -> f.severity() == Severity.INVALID);
  }

  /**
   * Each client's locks its own: the ring's data went wrong (errors counted by the workers, each
   * node's in a finding of its own) or the node's worker never waited in a lock call; the rule that
   * reads the mount names the option.
   */
  private static void assertNodeLocal(RunRecord run, Map<String, String> settings, String option) {
    assertOkWithSettings(run, settings);
    List<NodeResult> nodes = run.steps().get(0).results();
    assertThat(nodes).hasSize(2);
    long checks = nodes.stream().mapToLong(NodeResult::coherenceChecks).sum();
    long errors = nodes.stream().mapToLong(NodeResult::coherenceErrors).sum();
    System.out.printf(
        "NFS %s: %d of %d checks failed %s%n",
        option,
        errors,
        checks,
        nodes.stream()
            .map(n -> n.node() + "=" + n.coherenceErrors() + "/" + n.coherenceChecks())
            .toList());
    assertThat(checks).as("checks made across the ring").isPositive();
    for (NodeResult n : nodes) {
      if (n.coherenceErrors() == 0) {
        assertThat(TestLab.lockShare(n))
            .as("share of %s's time in lock calls, with no error in %d checks", n.node(), checks)
            .isLessThan(0.05);
      } else {
        assertThat(run.analysis().findings())
            .anySatisfy(
                f -> {
                  assertThat(f.severity()).isEqualTo(Severity.INVALID);
                  assertThat(f.message())
                      .contains(
                          "node " + n.node() + " saw " + n.coherenceErrors() + " coherence error");
                });
      }
    }
    Finding rule =
        run.analysis().findings().stream()
            .filter(f -> f.code().equals("node-local-locks"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no node-local-locks finding"));
    assertThat(rule.severity()).isEqualTo(Severity.INVALID);
    assertThat(rule.message()).contains(option, "(node1, node2)");
  }

  private static double solo(RunRecord run, String node) {
    return rate(run, "solo-" + node, node);
  }

  private static double together(RunRecord run, String node) {
    return rate(run, "all", node);
  }

  private static double rate(RunRecord run, String step, String node) {
    return run.steps().stream()
        .filter(s -> s.id().equals(step))
        .flatMap(s -> s.results().stream())
        .filter(n -> n.node().equals(node))
        .mapToDouble(NodeResult::throughput)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + node + " in step " + step));
  }
}

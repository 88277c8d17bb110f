package lockstep.coordinator.analysis;

import static lockstep.coordinator.analysis.TestRuns.agent;
import static lockstep.coordinator.analysis.TestRuns.allStep;
import static lockstep.coordinator.analysis.TestRuns.analysed;
import static lockstep.coordinator.analysis.TestRuns.node;
import static lockstep.coordinator.analysis.TestRuns.run;
import static lockstep.coordinator.analysis.TestRuns.step;
import static lockstep.coordinator.analysis.TestRuns.workload;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

/** Verdicts that know the file system: no lock manager or rate limit where there is none. */
class FileSystemVerdictsTest {
  private static List<StepRecord> flatSteps() {
    return List.of(
        step("solo-node1", "solo-node1", "solo", 1, node("node1", 97, 1.0)),
        step("solo-node2", "solo-node2", "solo", 1, node("node2", 99, 1.0)),
        allStep(node("node1", 50, 1.0), node("node2", 49, 1.0)));
  }

  private static List<AgentRecord> on(String fs, Map<String, String> settings) {
    return List.of(agent("node1", "6.1", settings, fs), agent("node2", "6.1", settings, fs));
  }

  private static String all(RunRecord r) {
    return String.join("\n", r.analysis().findings().stream().map(Finding::message).toList());
  }

  @Test
  void aLocalFileSystemIsNeverSaidToWaitOnALockManagerOrARateLimit() {
    RunRecord local = analysed(run(on("ext4", Map.of()), flatSteps(), 1, 0.05));
    assertThat(all(local))
        .contains("a local file system has no cluster lock manager")
        .doesNotContain("rate limit", "cluster lock manager or");
    LockWait w = LockWait.of(local, 2);
    assertThat(w.code()).isEqualTo(FindingCode.WAITING);
    assertThat(w.onWhat()).contains("on this machine", "no lock manager and no rate limit");
  }

  @Test
  void pingPongsRingWaitsForItselfByDesign() {
    RunRecord ring = analysed(run(on("tmpfs", Map.of()), flatSteps(), 1, 0.05, "ping-pong"));
    LockWait w = LockWait.of(ring, 2);
    assertThat(w.code()).isEqualTo(FindingCode.RING_WAITING);
    assertThat(w.onWhat()).contains("ping-pong ring, by design").doesNotContain("lock manager");
    RunRecord gfs2 = analysed(run(on("gfs2", Map.of()), flatSteps(), 1, 0.05, "ping-pong"));
    assertThat(LockWait.of(gfs2, 2).onWhat()).contains("by design", "the cluster's DLM");
    // one process alone is no ring: on GFS2 it waits on the lock manager, locally on nothing
    assertThat(LockWait.of(gfs2, 1).onWhat()).startsWith("on the cluster's DLM");
    assertThat(LockWait.of(ring, 1).onWhat()).contains("one process in the ring");
  }

  @Test
  void aRatePinnedAtDlmControldsLimitIsCalledARateLimitNamingTheSettingAndItsValue() {
    Map<String, String> limit100 =
        Map.of("dlm_controld:plock_rate_limit", "100", "dlm_controld:plock_ownership", "1");
    RunRecord pinned = analysed(run(on("gfs2", limit100), flatSteps(), 1, 0.05));
    Finding f =
        pinned.analysis().findings().stream()
            .filter(x -> x.type() == FindingCode.RATE_LIMIT)
            .findFirst()
            .orElseThrow();
    assertThat(f.headline()).isTrue();
    assertThat(f.message())
        .startsWith("Rate limit: the lock rate is pinned at the cluster's limit")
        .contains("plock_rate_limit is 100 (dlm_controld)", "locks/s per node");
    assertThat(LockWait.of(pinned, 1).onWhat())
        .contains("the cluster's DLM", "whose plock_rate_limit is 100 (dlm_controld)");
    // the limit off (0): a rate flat alone and together is not pinned at anything
    List<StepRecord> flat =
        List.of(
            step("solo-node1", "solo-node1", "solo", 1, node("node1", 3000, 1.0)),
            step("solo-node2", "solo-node2", "solo", 1, node("node2", 3010, 1.0)),
            allStep(node("node1", 2990, 1.0), node("node2", 3000, 1.0)));
    RunRecord off =
        analysed(run(on("gfs2", Map.of("dlm_controld:plock_rate_limit", "0")), flat, 1, 0.05));
    assertThat(all(off))
        .doesNotContain("pinned")
        .contains("looks like a rate limit", "plock_rate_limit is 0 (dlm_controld) (no limit)");
    // together only, as a ping-pong ring's nodes go: one pace by design, not a limiter's sign
    RunRecord ring =
        analysed(
            run(
                on("nfs4", nfs("none", "on")),
                List.of(allStep(node("node1", 63, 1.0), node("node2", 63, 1.0))),
                1,
                0.05));
    assertThat(all(ring)).doesNotContain("rate limit");
    // far below the limit: not pinned either
    RunRecord high =
        analysed(
            run(
                on("gfs2", Map.of("dlm_controld:plock_rate_limit", "10000")),
                flatSteps(),
                1,
                0.05));
    assertThat(all(high)).doesNotContain("pinned");
  }

  @Test
  void flockNeverPassesThroughDlmControldsPlockLimitAndOcfs2OnO2cbWaitsOnO2dlm() {
    WorkloadSpec flock = workload("type: hot-lock, lock: flock");
    // the lab's nodes run both stacks: dlm_controld's limit is in every node's environment
    Map<String, String> both =
        Map.of("dlm_controld:plock_rate_limit", "100", "ocfs2:cluster_stack", "o2cb");
    RunRecord gfs2 = analysed(run(on("gfs2", both), flatSteps(), 1, 0.05, flock));
    assertThat(all(gfs2)).doesNotContain("plock_rate_limit");
    assertThat(LockWait.of(gfs2, 1).onWhat())
        .isEqualTo(
            "on the cluster's DLM (fcntl locks" + " through dlm_controld, flock through glocks)");
    RunRecord ocfs2 = analysed(run(on("ocfs2", both), flatSteps(), 1, 0.05, flock));
    assertThat(all(ocfs2)).doesNotContain("plock_rate_limit");
    assertThat(LockWait.of(ocfs2, 1).onWhat()).isEqualTo("on o2dlm (OCFS2's o2cb cluster stack)");
    // fcntl on GFS2 still does
    RunRecord fcntl = analysed(run(on("gfs2", both), flatSteps(), 1, 0.05, "hot-lock"));
    assertThat(all(fcntl)).contains("plock_rate_limit is 100 (dlm_controld)");
    // an NFS client that runs dlm_controld for another file system: NFS's locks never meet it
    RunRecord nfs = analysed(run(on("nfs4", both), flatSteps(), 1, 0.05, "hot-lock"));
    assertThat(LockWait.of(nfs, 1).onWhat())
        .startsWith("on the NFS server's lock manager")
        .doesNotContain("plock_rate_limit");
  }

  @Test
  void anAggregateWithoutSolosCarriesItsUnitAndOneMachineIsSaidToBeOne() {
    RunRecord together =
        analysed(
            run(
                List.of(agent("node1").withBootId("b"), agent("node2").withBootId("b")),
                List.of(allStep(node("node1", 500, 1.0), node("node2", 500, 1.0))),
                1,
                0.05));
    assertThat(all(together))
        .contains("All nodes together: 1,000 locks/s in total")
        .contains("All 2 agents run on one machine (host)", "measures that machine");
  }

  @Test
  void recordLocksOnOcfs2WithO2cbNeverContendAcrossNodesAndTheRunIsInvalidNamingWhy() {
    Map<String, String> o2cb = Map.of("ocfs2:cluster_stack", "o2cb");
    RunRecord fcntl = analysed(run(on("ocfs2", o2cb), flatSteps(), 1, 0.05, "ping-pong"));
    Finding f = fcntl.analysis().findings().get(0);
    assertThat(f.type()).isEqualTo(FindingCode.NODE_LOCAL_LOCKS);
    assertThat(f.headline()).isTrue();
    assertThat(f.message())
        .startsWith("INVALID RUN: the nodes' fcntl locks never contended")
        .contains("o2cb has no cluster-wide POSIX locks", "flock is cluster-wide there");
    assertThat(fcntl.analysis().valid()).isFalse();
    // flock is cluster-wide on o2cb; on GFS2 (dlm_controld) fcntl locks are cluster-wide too
    RunRecord flock =
        analysed(
            run(on("ocfs2", o2cb), flatSteps(), 1, 0.05, workload("type: hot-lock, lock: flock")));
    assertThat(flock.analysis().findings())
        .noneMatch(x -> x.type() == FindingCode.NODE_LOCAL_LOCKS);
    RunRecord gfs2 = analysed(run(on("gfs2", Map.of()), flatSteps(), 1, 0.05, "ping-pong"));
    assertThat(gfs2.analysis().findings()).noneMatch(x -> x.type() == FindingCode.NODE_LOCAL_LOCKS);
  }

  @Test
  void onNfsLocalLockOrNolockKeepsLocksOnTheirNodeAndTheRunIsInvalidNamingTheOption() {
    RunRecord localAll = pingPongOn("nfs4", "all", "on");
    Finding f = localAll.analysis().findings().get(0);
    assertThat(f.type()).isEqualTo(FindingCode.NODE_LOCAL_LOCKS);
    assertThat(f.message())
        .startsWith("INVALID RUN: the nodes' fcntl locks never contended")
        .contains("local_lock=all (node1, node2)", "never asks the server");
    assertThat(localAll.analysis().valid()).isFalse();

    RunRecord nolock = pingPongOn("nfs", "none", "off");
    assertThat(nolock.analysis().findings().get(0).message())
        .contains("mounted with nolock (node1, node2)", "NLM");
    // the kernel reads nolock back with local_lock=all (a v3 mount in a lab guest, Linux 6.1):
    // the option the admin wrote is the one named
    RunRecord nolockAll = pingPongOn("nfs", "all", "off");
    assertThat(nolockAll.analysis().findings().get(0).message())
        .contains("mounted with nolock (node1, node2)")
        .doesNotContain("local_lock");

    // local_lock=flock leaves fcntl locks to the server; flock is then the node's own
    RunRecord fcntl = pingPongOn("nfs", "flock", "on");
    assertThat(fcntl.analysis().findings())
        .noneMatch(x -> x.type() == FindingCode.NODE_LOCAL_LOCKS);
    RunRecord flock =
        analysed(
            run(
                on("nfs", nfs("flock", "on")),
                flatSteps(),
                1,
                0.05,
                workload("type: hot-lock, lock: flock")));
    assertThat(flock.analysis().findings().get(0).message())
        .contains("local_lock=flock (node1, node2)", "grants flock locks itself");

    // the default mount: locks go to the server, no finding
    RunRecord shared = pingPongOn("nfs4", "none", "on");
    assertThat(shared.analysis().findings())
        .noneMatch(x -> x.type() == FindingCode.NODE_LOCAL_LOCKS);
    // ... and flock there is what Linux makes of it on NFS: a POSIX lock at the server
    RunRecord serverFlock =
        analysed(
            run(
                on("nfs4", nfs("none", "on")),
                flatSteps(),
                1,
                0.05,
                workload("type: hot-lock, lock: flock")));
    assertThat(FileSystems.lockManager(serverFlock))
        .startsWith("the NFS server's lock manager (flock goes there as a whole-file POSIX lock");
    assertThat(FileSystems.lockManager(shared)).isEqualTo("the NFS server's lock manager");
  }

  /** An NFS mount's locking as the agent reports it (ClusterSettings.nfsOptions). */
  private static Map<String, String> nfs(String localLock, String lock) {
    return Map.of("nfs:local_lock", localLock, "nfs:lock", lock);
  }

  /** A fcntl ping-pong run, solo then together, on two nodes with this NFS mount. */
  private static RunRecord pingPongOn(String fs, String localLock, String lock) {
    return analysed(run(on(fs, nfs(localLock, lock)), flatSteps(), 1, 0.05, "ping-pong"));
  }
}

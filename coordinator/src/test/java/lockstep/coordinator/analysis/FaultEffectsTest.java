package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

/** A survivor's stall and recovery, read from a time series of known shape. */
class FaultEffectsTest {
  private static final Fault KILL = new Fault(5_000, "node2", FaultAction.KILL, 0);

  /**
   * 100 ms samples over {@code seconds}: {@code before} ops/s until {@code stallFrom}, nothing
   * until {@code stallTo}, then {@code after} ops/s.
   */
  private static List<Sample> series(
      double seconds, double before, double stallFrom, double stallTo, double after) {
    List<Sample> out = new ArrayList<>();
    double ops = 0;
    for (int i = 0; i <= seconds * 10; i++) {
      double t = i / 10.0;
      if (i > 0) {
        double mid = t - 0.05;
        ops += mid < stallFrom ? before / 10 : mid < stallTo ? 0 : after / 10;
      }
      out.add(new Sample(t, (long) ops, 0, 0));
    }
    return out;
  }

  @Test
  void measuresTheStallFromTheFaultAndTheWayBack() {
    FaultEffect e =
        FaultEffects.effect("all", "node1", KILL, 5.0, series(40, 1000, 5.0, 28.4, 2000), false);
    assertThat(e.stallSeconds()).isCloseTo(23.4, within(0.1));
    assertThat(e.stallFromSeconds()).isCloseTo(5.0, within(0.1));
    assertThat(e.resumed()).isTrue();
    // the rate over the last second is 90% of 1000/s once 0.45 s of it ran at 2000/s
    assertThat(e.backTo90Seconds()).isCloseTo(0.5, within(0.11));
    assertThat(e.rateBefore()).isCloseTo(1000, within(20.0));
    assertThat(e.rateDuring()).isCloseTo(0, within(5.0));
    assertThat(e.rateAfter()).isCloseTo(2000, within(40.0));
  }

  @Test
  void aSurvivorThatNeverStoppedHasNoStall() {
    FaultEffect e =
        FaultEffects.effect("all", "node1", KILL, 5.0, series(20, 1000, 99, 99, 1000), false);
    assertThat(e.stallSeconds()).isLessThan(0.2);
    assertThat(e.resumed()).isTrue();
    assertThat(e.backTo90Seconds()).isNotNull().isLessThan(1.1);
  }

  @Test
  void aStallThatOutlastsTheRunIsSaidToLastToItsEnd() {
    FaultEffect e =
        FaultEffects.effect("all", "node1", KILL, 5.0, series(20, 1000, 5.2, 99, 0), false);
    assertThat(e.resumed()).isFalse();
    assertThat(e.stallSeconds()).isCloseTo(14.8, within(0.1));
    assertThat(e.backTo90Seconds()).isNull();
  }

  @Test
  void aLongerPauseBeforeTheFaultIsNotItsStall() {
    List<Sample> s = series(30, 1000, 12.0, 15.0, 1000);
    // a 7 s pause at 1..8 s, before the fault at 10 s
    List<Sample> paused = new ArrayList<>();
    long shift = 0;
    for (Sample x : s) {
      if (x.t() > 1.0 && x.t() <= 8.0) {
        shift += 100;
      }
      paused.add(new Sample(x.t(), x.ops() - shift, 0, 0));
    }
    FaultEffect e = FaultEffects.effect("all", "node1", KILL, 10.0, paused, false);
    assertThat(e.stallFromSeconds()).isCloseTo(12.0, within(0.1));
    assertThat(e.stallSeconds()).isCloseTo(3.0, within(0.15));
  }

  @Test
  void theVerdictLeadsWithTheStallInPlainWordsAndItsBounds() {
    RunRecord run =
        killedAt5s(
            series(40, 1000, 5.0, 28.4, 2000),
            Map.of("corosync:totem.token", "3000", "corosync:totem.consensus", "3600"),
            "gfs2");
    Finding head = run.analysis().findings().get(0);
    assertThat(head.type()).isEqualTo(FindingCode.FAULT_STALL);
    assertThat(head.message())
        .matches(
            "node1's locks stalled 23\\.[45] s after node2 was killed \\(at 5\\.0 s\\); back to 90%"
                + " of its rate 0\\.[56] s later \\(1,000 locks/s before, [0-9.]+ during, 2,000"
                + " after\\)\\. corosync declares a silent node lost after its token timeout 3000"
                + " ms plus consensus 3600 ms, then dlm recovers its locks");
    assertThat(run.analysis().faultEffects()).hasSize(1);
  }

  @Test
  void aStallThatBeganWellAfterTheFaultIsSaidToHaveComeLater() {
    // o2dlm: a survivor that needed nothing the dead node held goes on until o2hb declares the
    // node dead (60 s), then pauses while the locks are recovered
    RunRecord run =
        killedAt5s(
            series(80, 1000, 65.0, 67.2, 1000),
            Map.of("o2cb:heartbeat_dead_threshold", "31"),
            "ocfs2");
    assertThat(run.analysis().findings().get(0).message())
        .matches(
            "node1's locks went on after node2 was killed \\(at 5\\.0 s\\), then stalled 2\\.[123]"
                + " s from 65\\.0 s \\(60\\.0 s after the fault\\); back to 90% of its rate .*o2cb"
                + " declares a node dead when its disk heartbeat has been missing for 60 s .*");
  }

  @Test
  void onNfsTheVerdictNamesTheLeaseOnV4AndTheClientsReturnOnV3() {
    // a client killed while another waits on its lock: the server's v4 lease (15 s) bounds it
    RunRecord v4 =
        killedAt5s(
            series(40, 100, 5.0, 24.0, 100),
            Map.of("nfs:vers", "4.2", "nfs:lease_time", "15"),
            "nfs4");
    assertThat(v4.analysis().findings().get(0).message())
        .contains(
            "node1's locks stalled",
            "The NFS server drops a silent v4 client's locks once its lease has run out (lease time"
                + " 15 s, nfsd's nfsv4leasetime) and another client asks for them");
    RunRecord v3 = killedAt5s(series(40, 100, 5.0, 40, 0), Map.of("nfs:vers", "3"), "nfs");
    assertThat(v3.analysis().findings().get(0).message())
        .contains("until that client comes back and its rpc.statd notifies the server");
  }

  @Test
  void aRestartedNfsServersGracePeriodBoundsTheClientsStallAsItsWatchOnlyAgentReadIt() {
    Fault restart = new Fault(5_000, "srv", FaultAction.RESTART, 3_000);
    TestRuns.NodeBuilder n1 = TestRuns.building("node1", 50_000, 0.0, 40.0);
    n1.series = series(40, 100, 5.0, 24.0, 100);
    StepRecord all =
        TestRuns.allStep(n1.build())
            .withFaults(
                List.of(
                    new FaultRecord(
                        restart,
                        TestRuns.ORIGIN + 5_000_000_000L,
                        TestRuns.ORIGIN + 8_000_000_000L,
                        false,
                        null,
                        "nfsd started again (grace 15 s, lockd's 15 s)",
                        null)));
    RunRecord run =
        TestRuns.analysed(
            TestRuns.copy(
                    TestRuns.run(
                        List.of(
                            TestRuns.agent("node1", "6.1.0", Map.of("nfs:vers", "4.2"), "nfs4"),
                            TestRuns.agent("node2", "6.1.0", Map.of("nfs:vers", "4.2"), "nfs4")),
                        List.of(all),
                        1,
                        0.05,
                        "hot-lock"))
                .watchers(
                    List.of(
                        TestRuns.agent(
                            "srv",
                            "6.1.0",
                            Map.of(
                                "nfsd:threads", "8",
                                "nfsd:grace_time", "15",
                                "lockd:nlm_grace_period", "20"),
                            "ext4")))
                .build());
    assertThat(run.analysis().findings())
        .filteredOn(f -> f.type() == FindingCode.FAULT_STALL)
        .singleElement()
        .extracting(Finding::message)
        .asString()
        .contains(
            "node1's locks stalled 19.1 s after srv restarted its file service for 3.0 s (at 5.0"
                + " s)",
            "A restarted NFS server begins a grace period in which its clients reclaim the locks"
                + " they held and no new lock is granted (grace time 15 s, nfsd's nfsv4gracetime):"
                + " a lock asked for meanwhile waits for its end, and for the client's next try");
    assertThat(run.analysis().findings())
        .as("the server ran no workload: no victim's finding")
        .noneMatch(f -> f.type() == FindingCode.FAULT_VICTIM);
  }

  /**
   * The victim of a partition: its agent reports through the management network while its locks
   * stand still (an inquorate node), until the lab fences it; the verdict says what it measured.
   */
  @Test
  void aPartitionedVictimsWorkStallsWhileItsAgentStillAnswersAndTheVerdictSaysSo() {
    assertThat(victimFinding(15.1))
        .startsWith(
            "node2 was cut off the cluster network at 5.0 s for 10.0 s: 160 locks while it lasted")
        .contains("its work stalled 10.0 s from 5.2 s")
        .contains("its agent answered throughout (its last report at 15.1 s) and lost at 15.6 s")
        .endsWith("then fenced (its QEMU killed) instead of reconnected: node2 was silent.");
    // it reports once a second: a last report 1.1 s before the end is within its interval, one
    // 2 s before is not
    assertThat(victimFinding(13.9))
        .contains("its agent answered throughout (its last report at 13.9 s)");
    assertThat(victimFinding(13.0)).contains("its agent was silent from 13.0 s");
  }

  /** The victim's finding of a 10 s cut whose victim last reported at {@code lastReport} s. */
  private static String victimFinding(double lastReport) {
    Fault cut = new Fault(5_000, "node2", FaultAction.PARTITION, 10_000);
    TestRuns.NodeBuilder n1 = TestRuns.building("node1", 50_000, 0.0, 20.0);
    n1.series = series(20, 1000, 5.0, 13.0, 1000);
    StepRecord all =
        TestRuns.allStep(n1.build())
            .withFaults(
                List.of(
                    new FaultRecord(
                        cut,
                        TestRuns.ORIGIN + 5_000_000_000L,
                        TestRuns.ORIGIN + 15_000_000_000L,
                        true,
                        null,
                        "fenced (its QEMU killed) instead of reconnected: node2 was silent",
                        "restarted",
                        series(lastReport, 800, 5.2, 99, 0),
                        15.6)));
    RunRecord run =
        TestRuns.analysed(
            TestRuns.run(
                List.of(
                    TestRuns.agent("node1", "6.1.0", Map.of(), "gfs2"),
                    TestRuns.agent("node2", "6.1.0", Map.of(), "gfs2")),
                List.of(all),
                1,
                0.05,
                "hot-lock"));
    List<Finding> victim =
        run.analysis().findings().stream()
            .filter(f -> f.type() == FindingCode.FAULT_VICTIM)
            .toList();
    assertThat(victim).hasSize(1);
    assertThat(run.analysis().findings().stream().filter(f -> f.type() == FindingCode.FAULT_STALL))
        .as("the survivor's own finding stays")
        .hasSize(1);
    return victim.get(0).message();
  }

  /**
   * An analysed hot-lock run of one step in which node2 was killed at 5 s; node1 survived with this
   * series, to its last sample.
   */
  private static RunRecord killedAt5s(
      List<Sample> survivor, Map<String, String> settings, String fs) {
    double seconds = survivor.get(survivor.size() - 1).t();
    TestRuns.NodeBuilder n1 = TestRuns.building("node1", 50_000, 0.0, seconds);
    n1.series = survivor;
    StepRecord all =
        TestRuns.allStep(n1.build())
            .withFaults(
                List.of(
                    new FaultRecord(
                        KILL, TestRuns.ORIGIN + 5_000_000_000L, 0, true, null, null, "restarted")));
    return TestRuns.analysed(
        TestRuns.run(
            List.of(
                TestRuns.agent("node1", "6.1.0", settings, fs),
                TestRuns.agent("node2", "6.1.0", Map.of(), fs)),
            List.of(all),
            1,
            0.05,
            "hot-lock"));
  }
}

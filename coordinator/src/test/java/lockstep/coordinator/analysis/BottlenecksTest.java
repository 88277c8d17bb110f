package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

/** The bottleneck rules on constructed resource figures, each on both sides of its threshold. */
class BottlenecksTest {

  /**
   * A node's run figures: CPU busy and the workload's share of all CPU, device busy, one interface.
   */
  static ResourceFigures figures(
      double cpuBusy,
      double workloadCpu,
      String device,
      double deviceBusy,
      String iface,
      double ifaceMBps,
      Long linkMbps,
      long dirty) {
    List<DeviceFigures> devices =
        device.isEmpty()
            ? List.of()
            : List.of(new DeviceFigures(device, 10, 100, 0, 50, deviceBusy, 1.5, 2));
    Double linkPercent = linkMbps == null ? null : ifaceMBps * 8 / linkMbps * 100;
    return new ResourceFigures(
        2,
        cpuBusy,
        cpuBusy / 2,
        cpuBusy / 2,
        0,
        0,
        100 - cpuBusy,
        workloadCpu,
        1000,
        devices,
        List.of(
            new InterfaceFigures(
                iface, ifaceMBps, ifaceMBps / 10, 100, 100, linkMbps, linkPercent)),
        dirty,
        0,
        dirty);
  }

  static NodeResult node(String name, ResourceFigures run, Double lockShare) {
    return node(name, run, lockShare, 0);
  }

  static NodeResult node(String name, ResourceFigures run, Double lockShare, long bytes) {
    TestRuns.NodeBuilder n = TestRuns.building(name, 1000, 1.0);
    n.bytes = bytes;
    n.resources =
        new NodeResources(
            run.busiestDevice() == null ? "" : run.busiestDevice().device(),
            List.of(),
            2,
            null,
            run,
            List.of(),
            lockShare);
    return n.build();
  }

  /** A run of the workload a scenario writes as {@code fields} on orca and porpoise. */
  static RunRecord run(String fields, StepRecord... steps) {
    return TestRuns.building(
            List.of(TestRuns.agent("orca"), TestRuns.agent("porpoise")), List.of(steps))
        .named("r1", "t")
        .workload(TestRuns.workload(fields))
        .build();
  }

  static Finding only(List<Finding> findings, String step) {
    return findings.stream()
        .filter(f -> f.message().startsWith("Step " + step + ":"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void storageBoundNamesTheBusyDeviceAndItsSoloFigure() {
    RunRecord r =
        run(
            "type: write, size: 1MiB, fdatasync: true",
            TestRuns.step(
                "solo-orca",
                "solo-orca",
                "solo",
                1,
                node("orca", figures(20, 15, "sdb", 31, "eth0", 0.1, 1000L, 0), null)),
            TestRuns.allStep(
                node("orca", figures(30, 20, "sdb", 97, "eth0", 0.1, 1000L, 0), null),
                node("porpoise", figures(30, 20, "sdc", 60, "eth0", 0.1, 1000L, 0), null)));
    List<Finding> f = Bottlenecks.of(r);
    assertThat(only(f, "all").type()).isEqualTo(FindingCode.STORAGE_BOUND);
    assertThat(only(f, "all").message())
        .contains("storage-bound: node orca's device sdb busy 97% while together (31% alone)");
    assertThat(only(f, "solo-orca").type()).isEqualTo(FindingCode.NO_BOTTLENECK);
    assertThat(f).noneMatch(x -> x.type() == FindingCode.PAGE_CACHE);
  }

  @Test
  void storageThresholdIsEightyPercentBusy() {
    var below =
        Bottlenecks.judge(
            "s",
            List.of(load(figures(10, 5, "vda", 79.9, "lo", 0, null, 0), null)),
            Map.of(),
            null);
    var at =
        Bottlenecks.judge(
            "s", List.of(load(figures(10, 5, "vda", 80, "lo", 0, null, 0), null)), Map.of(), null);
    assertThat(below.type()).isEqualTo(FindingCode.NO_BOTTLENECK);
    assertThat(at.type()).isEqualTo(FindingCode.STORAGE_BOUND);
  }

  @Test
  void cpuBoundSaysHowMuchWasTheWorkloadsOwnProcesses() {
    assertFinding(
        judgeAlone(figures(99, 70.3, "vda", 5, "lo", 0, null, 0), 0.9, LockWait.SHARED),
        FindingCode.CPU_BOUND,
        "CPU-bound on porpoise: 99% busy, 71% of it in the workload's own processes",
        "may be Lockstep's limit");
    // an I/O workload on a CPU taken by others (lock workers in that case are 'waiting', below)
    assertFinding(
        judgeAlone(figures(90, 20, "", 0, "lo", 40, null, 0), null, null),
        FindingCode.CPU_BOUND,
        "22% of it in the workload's own processes",
        "mostly outside");
    var below = judgeAlone(figures(84.9, 20, "", 0, "lo", 40, null, 0), 0.2, LockWait.SHARED);
    assertThat(below.type()).isEqualTo(FindingCode.NO_BOTTLENECK);
  }

  @Test
  void waitingWhenWorkersSitInLockCallsWithCpuAndDeviceIdle() {
    var w =
        Bottlenecks.judge(
            "all",
            List.of(
                load(figures(8, 3, "vda", 3, "lo", 0.5, null, 0), 0.94),
                load(figures(7, 3, "vda", 2, "lo", 0.5, null, 0), 0.96)),
            Map.of(),
            LockWait.SHARED);
    assertFinding(
        w,
        FindingCode.WAITING,
        "waiting: CPU 8%, device 3% busy, 94% of the workers' time inside lock calls",
        "the nodes wait on something shared (a cluster lock manager or a rate limit)");
    // still waiting with the CPU busy but not saturated (a local file-system daemon's work),
    // and the line says whose the CPU time is
    assertFinding(
        judgeAlone(figures(83, 3, "vda", 3, "lo", 0, null, 0), 0.99, LockWait.SHARED),
        FindingCode.WAITING,
        "waiting: CPU 83% (",
        "% of it in the workload's own processes; the rest is the file system's daemons");
    // even with the CPU saturated, when it goes mostly to others (a local file-system daemon)
    assertThat(judgeAlone(figures(90, 3, "vda", 3, "lo", 0, null, 0), 0.94, LockWait.SHARED).type())
        .isEqualTo(FindingCode.WAITING);
    // not waiting: CPU saturated by the workload itself (CPU-bound), the lock share too small,
    // or not a lock workload
    assertThat(
            judgeAlone(figures(90, 80, "vda", 3, "lo", 0, null, 0), 0.94, LockWait.SHARED).type())
        .isEqualTo(FindingCode.CPU_BOUND);
    assertThat(judgeAlone(figures(8, 3, "vda", 3, "lo", 0, null, 0), 0.49, LockWait.SHARED).type())
        .isEqualTo(FindingCode.NO_BOTTLENECK);
    assertThat(judgeAlone(figures(8, 3, "vda", 3, "lo", 0, null, 0), 0.94, null).type())
        .isEqualTo(FindingCode.NO_BOTTLENECK);
    var fuse = judgeAlone(figures(20, 3, "", 0, "lo", 3, null, 0), 0.9, LockWait.SHARED);
    assertThat(fuse.message())
        .contains("waiting: CPU 20%, no local block device, 90% of the workers' time");
  }

  @Test
  void networkBoundNeedsALinkSpeed() {
    assertFinding(
        judgeAlone(figures(30, 10, "", 0, "eth0", 118, 1000L, 0), null, null),
        FindingCode.NETWORK_BOUND,
        "network-bound: 118 MB/s on eth0 of node porpoise, 94% of its 1 Gb/s link");
    // loopback has no link speed: never network-bound, however many bytes
    var lo = judgeAlone(figures(30, 10, "", 0, "lo", 5000, null, 0), null, null);
    assertThat(lo.type()).isEqualTo(FindingCode.NO_BOTTLENECK);
    var slow = judgeAlone(figures(30, 10, "", 0, "eth0", 90, 1000L, 0), null, null);
    assertThat(slow.type()).isEqualTo(FindingCode.NO_BOTTLENECK);
  }

  @Test
  void pageCacheOnlyForBufferedWritesThatLeftDirtyPages() {
    long gb = 1_800_000_000L;
    StepRecord all =
        TestRuns.allStep(
            node("orca", figures(30, 20, "sdb", 40, "eth0", 0.1, 1000L, gb), null, 2_000_000_000L));
    assertThat(Bottlenecks.of(run("type: write, size: 1MiB, fdatasync: false", all)))
        .anyMatch(
            f ->
                f.type() == FindingCode.PAGE_CACHE
                    && f.message().contains("page cache: 1.8 GB dirty on node orca at the end"));
    assertThat(Bottlenecks.of(run("type: write, size: 1MiB, fdatasync: true", all)))
        .noneMatch(f -> f.type() == FindingCode.PAGE_CACHE);
    assertThat(Bottlenecks.of(run("type: write, size: 1MiB, o-direct: true", all)))
        .noneMatch(f -> f.type() == FindingCode.PAGE_CACHE);
    StepRecord little =
        TestRuns.allStep(
            node(
                "orca",
                figures(30, 20, "sdb", 40, "eth0", 0.1, 1000L, 100_000_000L),
                null,
                2_000_000_000L));
    assertThat(Bottlenecks.of(run("type: write, size: 1MiB", little)))
        .noneMatch(f -> f.type() == FindingCode.PAGE_CACHE);
  }

  @Test
  void stepsWithoutSamplesGetNoBottleneckLine() {
    RunRecord r = run("type: lock-files", TestRuns.allStep(TestRuns.node("orca", 100, 1.0)));
    assertThat(Bottlenecks.of(r)).isEmpty();
  }

  @Test
  void theVerdictCarriesTheBottleneck() {
    RunRecord r =
        run(
            "type: lock-files",
            TestRuns.allStep(node("orca", figures(8, 3, "vda", 3, "lo", 0.5, null, 0), 0.94)));
    assertThat(RunAnalyzer.analyse(r).verdict())
        .anyMatch(v -> v.startsWith("Step all: waiting: CPU 8%"));
  }

  @Test
  void aWatchOnlyServersBusyDeviceIsTheBottleneckAndTheFindingSaysWhatTheNodeIs() {
    NodeLoad client =
        NodeLoad.of(
            "orca", List.of(node("orca", figures(20, 10, "", 0, "eth0", 9, null, 0), null)));
    NodeLoad server =
        NodeLoad.of(
                "nfs", List.of(node("nfs", figures(30, 1, "vdb", 97, "eth0", 18, null, 0), null)))
            .asWatchOnly();
    NodeLoad serverWithOne =
        NodeLoad.of(
                "nfs", List.of(node("nfs", figures(20, 1, "vdb", 96, "eth0", 18, null, 0), null)))
            .asWatchOnly();
    Finding f =
        Bottlenecks.judge("all", List.of(client, server), Map.of("nfs", serverWithOne), null);
    assertFinding(
        f,
        FindingCode.STORAGE_BOUND,
        "storage-bound: node nfs's device vdb busy 97% while together (96% with one node's"
            + " workload)",
        "(a watch-only node: it ran no workload, it serves the file system the nodes use)");
    // the same figures on a node that ran the workload: no such words
    assertThat(
            Bottlenecks.judge(
                    "all",
                    List.of(
                        client,
                        NodeLoad.of(
                            "nfs",
                            List.of(
                                node(
                                    "nfs", figures(30, 1, "vdb", 97, "eth0", 18, null, 0), null)))),
                    Map.of(),
                    null)
                .message())
        .doesNotContain("watch-only");
  }

  /** The finding has this code and its message contains every one of {@code parts}. */
  private static void assertFinding(Finding f, FindingCode code, String... parts) {
    assertThat(f.type()).isEqualTo(code);
    assertThat(f.message()).contains(parts);
  }

  /** Step "all" of one node, porpoise, with these figures; no solo step to compare with. */
  private static Finding judgeAlone(ResourceFigures f, Double lockShare, LockWait lockWait) {
    return Bottlenecks.judge("all", List.of(load(f, lockShare)), Map.of(), lockWait);
  }

  private static NodeLoad load(ResourceFigures f, Double lockShare) {
    return NodeLoad.of("porpoise", List.of(node("porpoise", f, lockShare)));
  }
}

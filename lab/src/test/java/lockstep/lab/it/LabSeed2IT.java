package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.analysis.NodeLoad;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.lab.Stack;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Seed 2 on real OCFS2 (o2cb, two TCG guests) with the shared disk the limit, as the seed's SAN
 * was: one throttle group in the storage daemon that serves the disk to both guests. The seed's dd
 * shape halves together, the verdict says storage-bound naming the guest's device, dd run the same
 * way agrees, and a disk of each node's own does not halve. Then the OCFS2 developers' explanation,
 * tried: localalloc=0 (every allocation through the global bitmap's cluster lock) on an unthrottled
 * disk, whose verdict must not be the device's.
 */
// localalloc=8 at boot: the first test's set is then no remount
@OnLab(
    stacks = {Stack.OCFS2},
    boot = {"localalloc=8"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabSeed2IT extends LabTest {
  private static final int DISK_MBPS = 4;
  private static final String TWO = TestLab.first(2);
  // The seed's dd: 4 KiB blocks, conv=fdatasync; 32 MiB is 8 s alone at 4 MB/s.
  private static final String SEED2 =
      "name: lab-seed2-dd\nplan: [solo, all]\nworkload: {type: write, file: \"seed2.{node}\","
          + " block-size: 4KiB, size: 32MiB, fdatasync: true}\n";
  // The trial falls to 1/40 of solo together: 8 MiB is about half a minute.
  private static final String TRIAL = SEED2.replace("size: 32MiB", "size: 8MiB");
  private static final String DD = "dd if=/dev/zero bs=4k count=8192 conv=fdatasync 2>&1";
  private static final String BARRIER = "/mnt/ocfs2/seed2-ready";
  private static RunRecord throttled;

  @Test
  @Order(1)
  void onTheSharedThrottledDiskTogetherHalvesAndTheVerdictNamesTheDevice() throws Exception {
    TestLab.set("disk-mbps=" + DISK_MBPS, "localalloc=8");
    throttled = lab.run("ocfs2", SEED2, work, "--nodes", TWO);
    assertOkWithSettings(
        throttled,
        Map.of("ocfs2:cluster_stack", "o2cb", "ocfs2:localalloc", "8"),
        "o2cb:idle_timeout_ms",
        "o2cb:heartbeat_dead_threshold");
    Map<String, Double> ratio = togetherOverSolo(throttled);
    System.out.println("seed 2, shared disk at " + DISK_MBPS + " MB/s: together/solo " + ratio);
    // A fixed amount per node: whoever ends first leaves the other the whole disk, so a node's
    // mean together lies above half; what shows the shared budget is that the two together got
    // about one disk's worth (all bytes over the step's span), and each lost to the other.
    assertThat(ratio.values()).allSatisfy(r -> assertThat(r).isLessThan(0.8));
    assertThat(ratio.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow())
        .isLessThan(0.75);
    assertThat(together(throttled))
        .as("together, the nodes share one disk's budget")
        .isLessThan(1.2 * Math.max(solo(throttled, "node1"), solo(throttled, "node2")));
    assertThat(throttled.analysis().findings())
        .anyMatch(f -> f.code().equals("halved") || f.code().equals("scaling-loss"));
    Finding bound = allStepBottleneck(throttled);
    assertThat(bound.code()).isEqualTo("storage-bound");
    assertThat(bound.message()).containsPattern("device vd[a-z] busy");
  }

  @Test
  @Order(2)
  void ddRunTheSameWayAgreesAndADiskOfEachNodesOwnDoesNotHalve() {
    double lockstepAlone = solo(throttled, "node1");
    lab.must("node1", "rm -f " + BARRIER + ".*");
    double ddAlone = TestLab.ddMBps(lab.must("node1", DD + " of=/mnt/ocfs2/seed2-dd.node1"));
    Map<String, Double> ddTogether =
        TestLab.ddMBpsByNode(
            lab.must("clients", barrier("shared") + DD + " of=/mnt/ocfs2/seed2-dd.$(hostname)"));
    double privAlone = TestLab.ddMBps(lab.must("node1", DD + " of=/mnt/priv/seed2-dd"));
    Map<String, Double> privTogether =
        TestLab.ddMBpsByNode(lab.must("clients", barrier("own") + DD + " of=/mnt/priv/seed2-dd"));
    lab.must("clients", "rm -f /mnt/ocfs2/seed2-dd.* " + BARRIER + ".* /mnt/priv/seed2-dd");
    System.out.printf(
        Locale.ROOT,
        "seed 2 dd: shared alone %.2f MB/s (lockstep %.2f, %.2fx), together %s; own disk alone"
            + " %.2f, together %s%n",
        ddAlone,
        lockstepAlone,
        lockstepAlone / ddAlone,
        ddTogether,
        privAlone,
        privTogether);
    // same shape, same disk, minutes apart on emulated CPUs: a comparison, not a speed test
    assertThat(lockstepAlone / ddAlone).as("lockstep / dd alone").isBetween(0.7, 1.3);
    assertThat(ddTogether.values()).allSatisfy(v -> assertThat(v / ddAlone).isLessThan(0.8));
    assertThat(ddTogether.values().stream().mapToDouble(Double::doubleValue).sum())
        .isLessThan(1.25 * ddAlone);
    assertThat(privTogether.values())
        .allSatisfy(v -> assertThat(v / privAlone).isGreaterThan(0.85));
  }

  /**
   * A start barrier for dd on both nodes: each node marks itself ready on the shared OCFS2 and
   * starts once both marks are there (or fails after a minute). Two ssh sessions into the emulated
   * guests begin up to seconds apart, the seed's "almost simultaneously" by hand: one CI run had
   * 3.24 and 2.15 MB/s together against 4.00 alone, one node with the disk to itself for part of
   * its run. A node sees the other's mark within a cluster lock round trip.
   */
  private static String barrier(String name) {
    String mark = BARRIER + "." + name;
    return String.format(
        Locale.ROOT,
        "touch %1$s.$(hostname) && timeout 60 sh -c 'until [ -e %1$s.node1 ] && [ -e %1$s.node2 ];"
            + " do sleep 0.01; done' && ",
        mark);
  }

  @Test
  @Order(3)
  void withEveryAllocationThroughTheGlobalBitmapTheVerdictIsNotTheDevices() throws Exception {
    TestLab.set("disk-mbps=200", "localalloc=0");
    RunRecord trial = lab.run("ocfs2", TRIAL, work, "--nodes", TWO);
    assertOkWithSettings(trial, Map.of("ocfs2:localalloc", "0"));
    Map<String, Double> ratio = togetherOverSolo(trial);
    Finding bound = allStepBottleneck(trial);
    List<NodeLoad> loads = NodeLoad.byGroup(trial).get("all");
    double device = loads.stream().mapToDouble(NodeLoad::deviceBusyPercent).max().orElseThrow();
    double cpu = loads.stream().mapToDouble(NodeLoad::cpuBusyPercent).max().orElseThrow();
    System.out.printf(
        Locale.ROOT,
        "seed 2, localalloc=0, disk unthrottled: solo %s MB/s, together/solo %s, device at most"
            + " %.0f%% busy, CPU %.0f%%: %s%n",
        trial.steps().stream()
            .filter(s -> s.nodes().size() == 1)
            .map(s -> String.format(Locale.ROOT, "%.2f", s.results().get(0).throughput()))
            .toList(),
        ratio,
        device,
        cpu,
        bound.message());
    // Together each node fell to 0.01-0.05 of its solo rate (CI and the dev lab, 2026-12-06/07),
    // with the device at most 20-26% busy and the CPU at most 55-63%: neither is the limit, and
    // the verdict must say that the nodes wait on the cluster's locks.
    assertThat(ratio.values()).as("together / solo").allSatisfy(r -> assertThat(r).isLessThan(0.2));
    assertThat(device).as("the unthrottled disk is not the limit").isLessThan(50);
    assertThat(cpu).as("nor the CPU, together").isLessThan(85);
    assertThat(bound.code()).isEqualTo("cluster-lock-bound");
    assertThat(bound.message()).contains("localalloc=0 MB", "global bitmap");
  }

  private static Map<String, Double> togetherOverSolo(RunRecord run) {
    Map<String, Double> out = new java.util.TreeMap<>();
    run.steps().stream()
        .filter(s -> s.nodes().size() > 1)
        .flatMap(s -> s.results().stream())
        .forEach(n -> out.put(n.node(), n.throughput() / solo(run, n.node())));
    return out;
  }

  /**
   * The together step's aggregate: all bytes over the span from the first start to the last end.
   */
  private static double together(RunRecord run) {
    return run.steps().stream()
        .filter(s -> s.nodes().size() > 1)
        .mapToDouble(s -> s.aggregate().throughput())
        .findFirst()
        .orElseThrow();
  }

  private static double solo(RunRecord run, String node) {
    return run.steps().stream()
        .filter(s -> s.nodes().equals(List.of(node)))
        .flatMap(s -> s.results().stream())
        .mapToDouble(NodeResult::throughput)
        .findFirst()
        .orElseThrow();
  }

  private static Finding allStepBottleneck(RunRecord run) {
    List<String> bottlenecks =
        List.of(
            "storage-bound",
            "network-bound",
            "cpu-bound",
            "waiting",
            "no-bottleneck",
            "cluster-lock-bound");
    return run.analysis().findings().stream()
        .filter(f -> bottlenecks.contains(f.code()) && "all".equals(f.step()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no bottleneck for step all: " + run.analysis()));
  }
}

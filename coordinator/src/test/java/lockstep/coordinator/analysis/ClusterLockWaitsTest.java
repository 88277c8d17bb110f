package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import org.junit.jupiter.api.Test;

/**
 * Seed 2's two explanations told apart: dd on OCFS2 that halves with the shared disk busy is
 * storage-bound; halving with the disk and the CPU idle is cluster-lock-bound.
 */
class ClusterLockWaitsTest {
  private static final Map<String, String> SMALL_WINDOW = Map.of("ocfs2:localalloc", "1");

  private static NodeResult node(String name, double mbPerSecond, double deviceBusy) {
    ResourceFigures f = BottlenecksTest.figures(30, 10, "vdc", deviceBusy, "eth0", 0.1, null, 0);
    TestRuns.NodeBuilder n = TestRuns.building(name, (long) (mbPerSecond * 10), 10.0);
    n.resources = new NodeResources("vdc", List.of(), 2, null, f, List.of(), null);
    return n.build();
  }

  private static RunRecord dd(String fs, Map<String, String> settings, double[] rates) {
    List<AgentRecord> agents =
        List.of(
            TestRuns.agent("node1", "6.12", settings, fs),
            TestRuns.agent("node2", "6.12", settings, fs));
    List<StepRecord> steps =
        List.of(
            TestRuns.step("solo-node1", "solo-node1", "solo", 1, node("node1", 5.4, 90)),
            TestRuns.step("solo-node2", "solo-node2", "solo", 1, node("node2", 5.4, 90)),
            TestRuns.allStep(node("node1", rates[0], rates[2]), node("node2", rates[1], rates[2])));
    return TestRuns.building(agents, steps)
        .named("r1", "seed2")
        .workload(TestRuns.workload("type: write, size: 1MiB, fdatasync: true"))
        .build();
  }

  private static Finding all(RunRecord r) {
    return BottlenecksTest.only(Bottlenecks.of(r), "all");
  }

  @Test
  void halvedWithTheSharedDiskBusyIsStorageBound() {
    Finding f = all(dd("ocfs2", SMALL_WINDOW, new double[] {2.8, 2.8, 93}));
    assertThat(f.type()).isEqualTo(FindingCode.STORAGE_BOUND);
    assertThat(f.message()).contains("device vdc busy 93% while together");
  }

  @Test
  void halvedWithTheDiskAndCpuIdleIsClusterLockBound() {
    Finding f = all(dd("ocfs2", SMALL_WINDOW, new double[] {2.6, 3.0, 20}));
    assertThat(f.type()).isEqualTo(FindingCode.CLUSTER_LOCK_BOUND);
    assertThat(f.message())
        .contains(
            "node1 0.48x, node2 0.56x",
            "device at most 20% busy",
            "wait on the cluster's locks, not on the disk",
            "localalloc=1 MB",
            "global bitmap's cluster lock");
    assertThat(all(dd("gfs2", Map.of(), new double[] {2.6, 3.0, 20})).message())
        .contains("resource-group glocks");
  }

  @Test
  void notWhenTheNodesKeptTheirRateOrTheFileSystemIsLocal() {
    assertThat(all(dd("ocfs2", SMALL_WINDOW, new double[] {5.0, 4.6, 20})).type())
        .isEqualTo(FindingCode.NO_BOTTLENECK);
    assertThat(all(dd("ext4", Map.of(), new double[] {2.6, 3.0, 20})).type())
        .isEqualTo(FindingCode.NO_BOTTLENECK);
    assertThat(all(dd("ocfs2", SMALL_WINDOW, new double[] {2.6, 3.0, 60})).type())
        .isEqualTo(FindingCode.NO_BOTTLENECK);
  }
}

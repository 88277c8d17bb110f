package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;

/**
 * I/O on a shared-disk cluster file system (GFS2, OCFS2) that slowed down when the nodes worked
 * together while neither the device nor the CPU was busy: the nodes then wait on the cluster's
 * locks (OCFS2's allocations through the global bitmap's lock when a node's local alloc window is
 * small, GFS2's resource groups), not on the disk. A run bound by the disk is storage-bound instead
 * ({@link Bottlenecks}): this is what tells the two apart.
 */
final class ClusterLockWaits {
  private static final Set<String> SHARED_DISK = Set.of("gfs2", "ocfs2");

  /** Together below this share of the node's solo rate: the nodes lost to each other. */
  static final double LOSS_RATIO = 0.8;

  /** The device at most this busy (I/O in flight) on every node while together: not the disk. */
  static final double IDLE_DEVICE_PERCENT = 50;

  private ClusterLockWaits() {}

  /**
   * The finding for a together step that judged no single bottleneck, when it applies: a non-lock
   * workload on GFS2 or OCFS2, every node's device idle, each node below {@link #LOSS_RATIO} of its
   * solo rate.
   */
  static Optional<Finding> of(RunRecord run, String group, List<NodeLoad> loads) {
    String fs = FileSystems.common(run);
    if (run.takesLocks() || fs == null || !SHARED_DISK.contains(fs.toLowerCase(Locale.ROOT))) {
      return Optional.empty();
    }
    Map<String, Double> together = rates(run, s -> s.group().equals(group));
    Map<String, Double> solo = rates(run, s -> s.nodes().size() == 1);
    List<String> ratios = new ArrayList<>();
    for (Map.Entry<String, Double> e : together.entrySet()) {
      Double alone = solo.get(e.getKey());
      if (alone == null || alone <= 0 || e.getValue() / alone >= LOSS_RATIO) {
        return Optional.empty();
      }
      ratios.add(f("%s %.2fx", e.getKey(), e.getValue() / alone));
    }
    double device = loads.stream().mapToDouble(NodeLoad::deviceBusyPercent).max().orElse(100);
    double cpu = loads.stream().mapToDouble(NodeLoad::cpuBusyPercent).max().orElse(100);
    if (ratios.isEmpty() || device >= IDLE_DEVICE_PERCENT) {
      return Optional.empty();
    }
    return Optional.of(
        new Finding(
            FindingCode.CLUSTER_LOCK_BOUND,
            Severity.INFO,
            f(
                "Step %s: cluster-lock-bound: together each node reached this share of its solo"
                    + " rate (%s) with its device at most %.0f%% busy and CPU at most %.0f%%: the"
                    + " nodes wait on the cluster's locks, not on the disk or the CPU (%s).",
                group, String.join(", ", ratios), device, cpu, what(fs, run)),
            group));
  }

  private static String what(String fs, RunRecord run) {
    if (!"ocfs2".equalsIgnoreCase(fs)) {
      return "on GFS2 allocations take resource-group glocks, which the nodes pass between them";
    }
    String window =
        run.agents().stream()
            .map(AgentRecord::clusterSettings)
            .filter(c -> c != null && c.containsKey("ocfs2:localalloc"))
            .map(c -> "localalloc=" + c.get("ocfs2:localalloc") + " MB")
            .findFirst()
            .orElse("localalloc at the kernel's default");
    return "on OCFS2 a node allocates from its local alloc window ("
        + window
        + ") and takes the global bitmap's cluster lock whenever it runs out";
  }

  /** Each node's mean rate over the ok steps that match. */
  private static Map<String, Double> rates(RunRecord run, Predicate<StepRecord> which) {
    Map<String, double[]> sums = new LinkedHashMap<>();
    for (StepRecord s : run.steps()) {
      if (!s.ok() || !which.test(s)) {
        continue;
      }
      for (NodeResult n : s.results()) {
        double[] sum = sums.computeIfAbsent(n.node(), k -> new double[2]);
        sum[0] += n.throughput();
        sum[1]++;
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    sums.forEach((node, sum) -> out.put(node, sum[0] / sum[1]));
    return out;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}

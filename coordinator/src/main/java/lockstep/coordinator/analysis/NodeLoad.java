package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;

/**
 * One node's resource figures in one plan step, means over the repeats that carried samples: what
 * {@link Bottlenecks} judges, and what reports and compare print.
 *
 * @param device the busiest block device ("" when the root has none: network and FUSE file systems)
 * @param iface the interface that moved the most bytes, with its MB/s (busier direction) and share
 *     of the link (null where the speed is unknown)
 * @param lockWaitShare workers' time inside lock ops over their time (lock workloads), or null
 * @param dirtyBytes Dirty at the end of the run (largest over the repeats)
 * @param bytes bytes the node moved (mean over the repeats)
 * @param baselineCpuBusyPercent CPU busy in the idle baseline before the start, or null
 * @param watchOnly a watch-only node's (it ran no workload: a server of the file system)
 */
public record NodeLoad(
    String node,
    double cpuBusyPercent,
    double workloadCpuPercent,
    double iowaitPercent,
    String device,
    double deviceBusyPercent,
    double deviceMBps,
    String iface,
    double ifaceMBps,
    Double linkPercent,
    Long linkMbps,
    Double lockWaitShare,
    long dirtyBytes,
    double bytes,
    Double baselineCpuBusyPercent,
    boolean watchOnly) {

  /**
   * Each plan step's (group's) node loads over its ok records, in plan and node order, the
   * watch-only nodes' after the workload's; steps without samples left out.
   */
  public static Map<String, List<NodeLoad>> byGroup(RunRecord run) {
    Map<String, List<StepRecord>> groups = new LinkedHashMap<>();
    run.steps().stream()
        .filter(StepRecord::ok)
        .forEach(s -> groups.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
    Map<String, List<NodeLoad>> out = new LinkedHashMap<>();
    groups.forEach(
        (g, records) -> {
          List<NodeLoad> loads = new ArrayList<>();
          for (String node : records.get(0).nodes()) {
            NodeLoad l =
                of(
                    node,
                    records.stream()
                        .flatMap(s -> s.results().stream())
                        .filter(r -> r.node().equals(node))
                        .toList());
            if (l != null) {
              loads.add(l);
            }
          }
          for (NodeResult w : records.get(0).watched()) {
            NodeLoad l =
                of(
                    w.node(),
                    records.stream()
                        .flatMap(s -> s.watched().stream())
                        .filter(r -> r.node().equals(w.node()))
                        .toList());
            if (l != null) {
              loads.add(l.asWatchOnly());
            }
          }
          if (!loads.isEmpty()) {
            out.put(g, List.copyOf(loads));
          }
        });
    return out;
  }

  /** Means over the node's results that carry resources; null when none does. */
  public static NodeLoad of(String node, List<NodeResult> results) {
    List<NodeResult> rs =
        results.stream().filter(r -> r.resources() != null && r.resources().run() != null).toList();
    if (rs.isEmpty()) {
      return null;
    }
    List<ResourceFigures> f = rs.stream().map(r -> r.resources().run()).toList();
    List<DeviceFigures> d =
        f.stream().map(ResourceFigures::busiestDevice).filter(Objects::nonNull).toList();
    List<InterfaceFigures> i =
        f.stream().map(ResourceFigures::busiestInterface).filter(Objects::nonNull).toList();
    List<Double> link =
        i.stream().map(InterfaceFigures::linkPercent).filter(Objects::nonNull).toList();
    List<Double> baseline =
        rs.stream()
            .map(r -> r.resources().baseline())
            .filter(Objects::nonNull)
            .map(ResourceFigures::cpuBusyPercent)
            .toList();
    List<Double> lock =
        rs.stream().map(r -> r.resources().lockWaitShare()).filter(Objects::nonNull).toList();
    return new NodeLoad(
        node,
        mean(f.stream().map(ResourceFigures::cpuBusyPercent).toList()),
        mean(f.stream().map(ResourceFigures::workloadCpuPercent).toList()),
        mean(f.stream().map(ResourceFigures::iowaitPercent).toList()),
        d.isEmpty() ? "" : d.get(0).device(),
        mean(d.stream().map(DeviceFigures::busyPercent).toList()),
        mean(d.stream().map(x -> x.readMBps() + x.writeMBps()).toList()),
        i.isEmpty() ? "" : i.get(0).name(),
        mean(i.stream().map(InterfaceFigures::mbPerSecond).toList()),
        link.isEmpty() ? null : mean(link),
        i.isEmpty() ? null : i.get(0).linkMbps(),
        lock.isEmpty() ? null : mean(lock),
        f.stream().mapToLong(ResourceFigures::dirtyBytes).max().orElse(0),
        mean(rs.stream().map(r -> (double) r.bytes()).toList()),
        baseline.isEmpty() ? null : mean(baseline),
        false);
  }

  /** The same figures, of a watch-only node. */
  NodeLoad asWatchOnly() {
    return new NodeLoad(
        node,
        cpuBusyPercent,
        workloadCpuPercent,
        iowaitPercent,
        device,
        deviceBusyPercent,
        deviceMBps,
        iface,
        ifaceMBps,
        linkPercent,
        linkMbps,
        null,
        dirtyBytes,
        bytes,
        baselineCpuBusyPercent,
        true);
  }

  /** The workload's own processes' share of the busy CPU (0..1). */
  public double workloadShareOfBusy() {
    return cpuBusyPercent > 0 ? Math.min(1, workloadCpuPercent / cpuBusyPercent) : 0;
  }

  public boolean hasDevice() {
    return !device.isEmpty();
  }

  private static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }
}

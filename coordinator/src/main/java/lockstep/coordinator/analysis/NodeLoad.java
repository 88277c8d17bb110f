package lockstep.coordinator.analysis;

import java.util.List;
import java.util.Objects;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.ResourceFigures;

/**
 * One node's resource figures in one plan step, means over the repeats that carried samples:
 * what {@link Bottlenecks} judges, and what reports and compare print.
 *
 * @param device the busiest block device ("" when the root has none: network and FUSE file systems)
 * @param iface the interface that moved the most bytes, with its MB/s (busier direction) and
 *     share of the link (null where the speed is unknown)
 * @param lockWaitShare workers' time inside lock ops over their time (lock workloads), or null
 * @param dirtyBytes Dirty at the end of the run (largest over the repeats)
 * @param bytes bytes the node moved (mean over the repeats)
 */
public record NodeLoad(String node, double cpuBusyPercent, double workloadCpuPercent, double iowaitPercent,
                       String device, double deviceBusyPercent, double deviceMBps, String iface, double ifaceMBps,
                       Double linkPercent, Long linkMbps, Double lockWaitShare, long dirtyBytes, double bytes) {

    /** Means over the node's results that carry resources; null when none does. */
    public static NodeLoad of(String node, List<NodeResult> results) {
        List<NodeResult> rs = results.stream().filter(r -> r.resources() != null && r.resources().run() != null).toList();
        if (rs.isEmpty()) {
            return null;
        }
        List<ResourceFigures> f = rs.stream().map(r -> r.resources().run()).toList();
        List<DeviceFigures> d = f.stream().map(ResourceFigures::busiestDevice).filter(Objects::nonNull).toList();
        List<InterfaceFigures> i = f.stream().map(ResourceFigures::busiestInterface).filter(Objects::nonNull).toList();
        List<Double> link = i.stream().map(InterfaceFigures::linkPercent).filter(Objects::nonNull).toList();
        List<Double> lock = rs.stream().map(r -> r.resources().lockWaitShare()).filter(Objects::nonNull).toList();
        return new NodeLoad(node,
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
                mean(rs.stream().map(r -> (double) r.bytes()).toList()));
    }

    /** The same node's idle baseline (means over the repeats), or null. */
    public static ResourceFigures baselineOf(List<NodeResult> results) {
        return results.stream().map(NodeResult::resources).filter(Objects::nonNull).map(NodeResources::baseline)
                .filter(Objects::nonNull).findFirst().orElse(null);
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

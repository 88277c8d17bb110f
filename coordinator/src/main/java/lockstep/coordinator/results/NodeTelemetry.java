package lockstep.coordinator.results;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.ResourceTelemetry;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.DeviceFigures;
import lockstep.coordinator.model.InterfaceFigures;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.ResourceFigures;
import lockstep.coordinator.model.ResourcePoint;

/**
 * Turns an agent's cumulative resource counters into rates and shares per interval, on the
 * coordinator's time base (as {@link NodeResults} does for the progress series).
 */
public final class NodeTelemetry {
  /** /proc/diskstats counts 512-byte sectors whatever the device's own sector size. */
  static final long SECTOR_BYTES = 512;

  private NodeTelemetry() {}

  /**
   * @param origin the step's intended start, coordinator clock
   * @param lockWorkload whether the time inside ops is time inside lock calls
   * @return null when the agent sent no samples (sampling off, or an agent without telemetry)
   */
  public static NodeResources of(
      ResourceTelemetry t,
      ClockOffset clock,
      long origin,
      Latency latency,
      int workers,
      double seconds,
      boolean lockWorkload) {
    if (t.getSamplesCount() < 2) {
      return null;
    }
    Map<String, Long> links = t.getLinkSpeedMbpsMap();
    List<ResourceSample> s = t.getSamplesList();
    List<ResourcePoint> series = new ArrayList<>(s.size() - 1);
    for (int i = 1; i < s.size(); i++) {
      ResourceFigures f = figures(s.get(i - 1), s.get(i), links);
      if (f == null) {
        continue;
      }
      var d = f.busiestDevice();
      double net = f.interfaces().stream().mapToDouble(InterfaceFigures::mbPerSecond).sum();
      series.add(
          new ResourcePoint(
              (clock.toCoordinatorClock(s.get(i).getAtUnixNanos()) - origin) / 1e9,
              f.cpuBusyPercent(),
              f.iowaitPercent(),
              f.workloadCpuPercent(),
              d == null ? 0 : d.busyPercent(),
              d == null ? 0 : d.readMBps() + d.writeMBps(),
              net,
              f.dirtyBytes()));
    }
    List<ResourceSample> b = t.getBaselineList();
    ResourceFigures baseline = b.size() < 2 ? null : figures(b.get(0), b.get(b.size() - 1), links);
    ResourceFigures run = figures(s.get(0), s.get(s.size() - 1), links);
    return new NodeResources(
        t.getDevice(),
        t.getSlaveDevicesList(),
        t.getCpuCount(),
        baseline,
        run,
        series,
        lockWorkload ? lockWaitShare(latency, workers, seconds) : null);
  }

  /** The workers' time inside ops (count x mean latency) over workers x seconds, at most 1. */
  static Double lockWaitShare(Latency latency, int workers, double seconds) {
    if (latency == null || workers <= 0 || seconds <= 0) {
      return null;
    }
    double inside = latency.count() * latency.meanMicros() / 1e6;
    return Math.min(1.0, inside / (workers * seconds));
  }

  /** The figures between two samples; null when no time passed between them. */
  static ResourceFigures figures(ResourceSample a, ResourceSample b, Map<String, Long> links) {
    double dt = (b.getAtUnixNanos() - a.getAtUnixNanos()) / 1e9;
    if (dt <= 0) {
      return null;
    }
    CpuTicks x = a.getCpu();
    CpuTicks y = b.getCpu();
    double user = delta(x.getUser() + x.getNice(), y.getUser() + y.getNice());
    double system =
        delta(
            x.getSystem() + x.getIrq() + x.getSoftirq(),
            y.getSystem() + y.getIrq() + y.getSoftirq());
    double idle = delta(x.getIdle(), y.getIdle());
    double iowait = delta(x.getIowait(), y.getIowait());
    double steal = delta(x.getSteal(), y.getSteal());
    double total = user + system + idle + iowait + steal;
    double workload = delta(a.getWorkloadCpuTicks(), b.getWorkloadCpuTicks());
    return new ResourceFigures(
        dt,
        percent(user + system + steal, total),
        percent(user, total),
        percent(system, total),
        percent(iowait, total),
        percent(steal, total),
        percent(idle, total),
        Math.min(100, percent(workload, total)),
        delta(a.getContextSwitches(), b.getContextSwitches()) / dt,
        devices(a.getDisksList(), b.getDisksList(), dt),
        interfaces(a.getInterfacesList(), b.getInterfacesList(), dt, links),
        b.getDirtyBytes(),
        b.getWritebackBytes(),
        b.getDirtyBytes() - a.getDirtyBytes());
  }

  static List<DeviceFigures> devices(List<DiskCounters> a, List<DiskCounters> b, double dt) {
    return matched(
        a,
        b,
        DiskCounters::getDevice,
        (x, y) -> {
          double reads = delta(x.getReads(), y.getReads());
          double writes = delta(x.getWrites(), y.getWrites());
          double ioMillis =
              delta(x.getReadMillis() + x.getWriteMillis(), y.getReadMillis() + y.getWriteMillis());
          return new DeviceFigures(
              y.getDevice(),
              reads / dt,
              writes / dt,
              delta(x.getSectorsRead(), y.getSectorsRead()) * SECTOR_BYTES / 1e6 / dt,
              delta(x.getSectorsWritten(), y.getSectorsWritten()) * SECTOR_BYTES / 1e6 / dt,
              Math.min(100, delta(x.getIoMillis(), y.getIoMillis()) / (dt * 1000) * 100),
              delta(x.getWeightedIoMillis(), y.getWeightedIoMillis()) / (dt * 1000),
              reads + writes > 0 ? ioMillis / (reads + writes) : 0);
        });
  }

  static List<InterfaceFigures> interfaces(
      List<NetCounters> a, List<NetCounters> b, double dt, Map<String, Long> links) {
    return matched(
        a,
        b,
        NetCounters::getName,
        (x, y) -> {
          double rx = delta(x.getRxBytes(), y.getRxBytes()) / 1e6 / dt;
          double tx = delta(x.getTxBytes(), y.getTxBytes()) / 1e6 / dt;
          Long link = links.get(y.getName());
          Double linkPercent = link == null || link <= 0 ? null : Math.max(rx, tx) * 8 / link * 100;
          return new InterfaceFigures(
              y.getName(),
              rx,
              tx,
              delta(x.getRxPackets(), y.getRxPackets()) / dt,
              delta(x.getTxPackets(), y.getTxPackets()) / dt,
              link,
              linkPercent);
        });
  }

  /**
   * The figures of each counter set of the later sample {@code b} that the earlier {@code a} has
   * too (by name), in {@code b}'s order.
   */
  private static <C, F> List<F> matched(
      List<C> a, List<C> b, Function<C, String> name, BiFunction<C, C, F> figures) {
    Map<String, C> before = new HashMap<>();
    a.forEach(x -> before.put(name.apply(x), x));
    List<F> out = new ArrayList<>();
    for (C y : b) {
      C x = before.get(name.apply(y));
      if (x != null) {
        out.add(figures.apply(x, y));
      }
    }
    return out;
  }

  /** A counter's growth; a counter that went back (reset, wrap) counts as no growth. */
  private static double delta(long before, long after) {
    return after >= before ? after - before : 0;
  }

  private static double percent(double part, double total) {
    return total > 0 ? part / total * 100 : 0;
  }
}

package lockstep.coordinator.model;

import java.util.List;

/**
 * A node's resource use over one interval. CPU figures are percentages of all CPUs' time
 * (/proc/stat); busy = 100 - idle - iowait.
 *
 * @param workloadCpuPercent the agent's and its worker processes' CPU (/proc/PID/stat), of all
 *     CPUs' time
 * @param dirtyBytes, writebackBytes /proc/meminfo at the end of the interval
 * @param dirtyBytesGrowth Dirty at the end minus Dirty at the start
 */
public record ResourceFigures(
    double seconds,
    double cpuBusyPercent,
    double userPercent,
    double systemPercent,
    double iowaitPercent,
    double stealPercent,
    double idlePercent,
    double workloadCpuPercent,
    double contextSwitchesPerSecond,
    List<DeviceFigures> devices,
    List<InterfaceFigures> interfaces,
    long dirtyBytes,
    long writebackBytes,
    long dirtyBytesGrowth) {

  public ResourceFigures {
    devices = devices == null ? List.of() : List.copyOf(devices);
    interfaces = interfaces == null ? List.of() : List.copyOf(interfaces);
  }

  /** The device with the highest busy share (the root's device or one beneath it), or null. */
  public DeviceFigures busiestDevice() {
    return devices.stream()
        .max((a, b) -> Double.compare(a.busyPercent(), b.busyPercent()))
        .orElse(null);
  }

  /** The interface that moved the most bytes (either direction), or null. */
  public InterfaceFigures busiestInterface() {
    return interfaces.stream()
        .max((a, b) -> Double.compare(a.mbPerSecond(), b.mbPerSecond()))
        .orElse(null);
  }
}

package lockstep.agent.telemetry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import lockstep.agent.v1.ResourceSample;
import lockstep.common.WallClock;

/**
 * Reads the node's resource counters: /proc/stat, /proc/diskstats (the root's block device and the
 * devices beneath it), /proc/net/dev, /proc/meminfo and /proc/PID/stat of the workload's processes.
 * One {@link #sample} is a handful of small file reads; it runs on the telemetry thread, never on a
 * measured one. {@code base} is "/" except in tests.
 */
public final class ResourceSampler {
  private final Path base;
  private final Set<String> devices;
  private final List<String> slaves;
  private final String device;
  private final Supplier<List<Long>> pids;

  /** Last CPU ticks seen per process, so a worker that already exited still counts. */
  private final Map<Long, Long> processTicks = new HashMap<>();

  public ResourceSampler(Path base, String device, Supplier<List<Long>> pids) {
    this.base = base;
    this.device = device == null ? "" : device;
    this.slaves = this.device.isEmpty() ? List.of() : slaves(base, this.device);
    Set<String> all = new LinkedHashSet<>();
    if (!this.device.isEmpty()) {
      all.add(this.device);
    }
    all.addAll(slaves);
    this.devices = Set.copyOf(all);
    this.pids = pids;
  }

  public String device() {
    return device;
  }

  public List<String> slaveDevices() {
    return slaves;
  }

  /** Devices beneath a device-mapper or md device (/sys/block/X/slaves), recursively. */
  static List<String> slaves(Path base, String device) {
    Set<String> out = new LinkedHashSet<>();
    addSlaves(base, device, out, 0);
    return List.copyOf(out);
  }

  private static void addSlaves(Path base, String device, Set<String> out, int depth) {
    Path dir = base.resolve("sys/block").resolve(device).resolve("slaves");
    if (depth > 8 || !Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (out.add(name)) {
          addSlaves(base, name, out, depth + 1);
        }
      }
    } catch (IOException e) {
      // A device without readable slaves is sampled alone.
    }
  }

  /** Link speed per interface in Mb/s, for the interfaces whose speed the kernel knows. */
  public Map<String, Long> linkSpeeds() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (var nc : ProcParsers.interfaces(read("proc/net/dev"))) {
      long mbps = ProcParsers.linkSpeedMbps(read("sys/class/net/" + nc.getName() + "/speed"));
      if (mbps > 0) {
        out.put(nc.getName(), mbps);
      }
    }
    return out;
  }

  public int cpuCount() {
    int n = 0;
    for (String line : read("proc/stat").split("\n")) {
      if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
        n++;
      }
    }
    return n;
  }

  /** One sample of every counter, stamped with the agent's clock. */
  public ResourceSample sample() {
    String stat = read("proc/stat");
    String meminfo = read("proc/meminfo");
    return ResourceSample.newBuilder()
        .setAtUnixNanos(WallClock.nowNanos())
        .setCpu(ProcParsers.cpu(stat))
        .setContextSwitches(ProcParsers.contextSwitches(stat))
        .setWorkloadCpuTicks(workloadTicks())
        .addAllDisks(
            devices.isEmpty() ? List.of() : ProcParsers.disks(read("proc/diskstats"), devices))
        .addAllInterfaces(ProcParsers.interfaces(read("proc/net/dev")))
        .setDirtyBytes(ProcParsers.meminfoBytes(meminfo, "Dirty"))
        .setWritebackBytes(ProcParsers.meminfoBytes(meminfo, "Writeback"))
        .build();
  }

  private long workloadTicks() {
    for (long pid : pids.get()) {
      long ticks = ProcParsers.processCpuTicks(read("proc/" + pid + "/stat"));
      if (ticks >= 0) {
        processTicks.merge(pid, ticks, Math::max);
      }
    }
    long sum = 0;
    for (long t : processTicks.values()) {
      sum += t;
    }
    return sum;
  }

  /** The file's text, or "" when it cannot be read (a process gone, a file this kernel lacks). */
  private String read(String relative) {
    try {
      return new String(Files.readAllBytes(base.resolve(relative)), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return "";
    }
  }
}

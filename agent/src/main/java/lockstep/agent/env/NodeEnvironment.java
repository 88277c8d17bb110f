package lockstep.agent.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import lockstep.agent.fs.MountInfo;
import lockstep.agent.fs.RealtimeWake;

/**
 * What a node is: kernel, CPUs, memory, the block device under the root and cluster settings found
 * in their usual files. Every file is read under {@code base} ("/" on a node; a temporary tree in
 * tests); a file that is missing or unreadable leaves its field empty.
 */
public record NodeEnvironment(
    String kernel,
    int cpuCount,
    String cpuModel,
    long memoryBytes,
    String blockDevice,
    Map<String, String> clusterSettings) {

  public static NodeEnvironment capture(Path root) {
    NodeEnvironment files =
        capture(Path.of("/"), MountInfo.of(root), Runtime.getRuntime().availableProcessors());
    Map<String, String> settings = new TreeMap<>(files.clusterSettings());
    settings.putAll(ClusterDaemons.onThisNode().settings());
    settings.put("host:start-wake", RealtimeWake.get().describe());
    return new NodeEnvironment(
        files.kernel(),
        files.cpuCount(),
        files.cpuModel(),
        files.memoryBytes(),
        files.blockDevice(),
        Map.copyOf(settings));
  }

  /** The block device under the root's file system ("" for network and FUSE file systems). */
  public static String blockDeviceOf(Path root) {
    return MountInfo.of(root).map(m -> BlockDevice.of(Path.of("/"), m)).orElse("");
  }

  public static NodeEnvironment capture(Path base, Optional<MountInfo> mount, int cpus) {
    Map<String, String> settings =
        new TreeMap<>(ClusterSettings.fromClusterConf(base.resolve("etc/cluster/cluster.conf")));
    settings.putAll(ClusterSettings.fromO2cb(base));
    settings.putAll(ClusterSettings.fromNfsd(base));
    mount.ifPresent(m -> settings.putAll(ClusterSettings.fromMount(m)));
    mount
        .flatMap(m -> ClusterSettings.nfsLeaseTime(base.resolve("proc/self/mountstats"), m))
        .ifPresent(v -> settings.put("nfs:lease_time", v));
    cpuAffinity(base).ifPresent(a -> settings.put("host:cpu-affinity", a));
    return new NodeEnvironment(
        firstLine(base.resolve("proc/sys/kernel/osrelease")).orElse(""),
        cpus,
        cpuModel(base.resolve("proc/cpuinfo")),
        memTotal(base.resolve("proc/meminfo")),
        mount.map(m -> BlockDevice.of(base, m)).orElse(""),
        Map.copyOf(settings));
  }

  static Optional<String> firstLine(Path file) {
    return lines(file).stream().findFirst().map(String::trim);
  }

  static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * The agent's CPUs when they are fewer than the node's (systemd {@code CPUAffinity=}, taskset):
   * "1 of 0-1"; its worker processes inherit them, so every figure of the node was made on them.
   */
  static Optional<String> cpuAffinity(Path base) {
    Optional<String> online = firstLine(base.resolve("sys/devices/system/cpu/online"));
    Optional<String> allowed =
        lines(base.resolve("proc/self/status")).stream()
            .filter(l -> l.startsWith("Cpus_allowed_list:"))
            .map(l -> l.substring(l.indexOf(':') + 1).trim())
            .findFirst();
    if (online.isEmpty() || allowed.isEmpty() || allowed.get().equals(online.get())) {
      return Optional.empty();
    }
    return Optional.of(allowed.get() + " of " + online.get());
  }

  static String cpuModel(Path cpuinfo) {
    for (String l : lines(cpuinfo)) {
      if (l.startsWith("model name") && l.contains(":")) {
        return l.substring(l.indexOf(':') + 1).trim().replaceAll("\\s+", " ");
      }
    }
    return "";
  }

  static long memTotal(Path meminfo) {
    for (String l : lines(meminfo)) {
      if (l.startsWith("MemTotal:")) {
        String[] f = l.substring(9).trim().split("\\s+");
        try {
          long v = Long.parseLong(f[0]);
          return f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v;
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }
}

package lockstep.agent.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;

/**
 * Parsers for the kernel's counter files (proc(5)). Each takes the file's text and returns the
 * counters as the kernel keeps them (cumulative); rates are the coordinator's business. Lines or
 * fields that do not parse are skipped, so a kernel with more or fewer columns still works.
 */
public final class ProcParsers {
  private ProcParsers() {}

  /** The aggregate "cpu" line of /proc/stat; missing columns (old kernels) read as 0. */
  public static CpuTicks cpu(String procStat) {
    String line = firstLine(procStat, "cpu ");
    if (line == null) {
      return CpuTicks.getDefaultInstance();
    }
    String[] f = columns(line);
    return CpuTicks.newBuilder()
        .setUser(field(f, 1))
        .setNice(field(f, 2))
        .setSystem(field(f, 3))
        .setIdle(field(f, 4))
        .setIowait(field(f, 5))
        .setIrq(field(f, 6))
        .setSoftirq(field(f, 7))
        .setSteal(field(f, 8))
        .build();
  }

  /** "ctxt" of /proc/stat: context switches since boot. */
  public static long contextSwitches(String procStat) {
    String line = firstLine(procStat, "ctxt ");
    return line == null ? 0 : number(line.substring(5).trim());
  }

  /**
   * utime + stime (fields 14 and 15) of /proc/PID/stat, clock ticks; -1 when the text is not a stat
   * line. The command name (field 2) may hold spaces and parentheses, so fields are counted after
   * its last ')'.
   */
  public static long processCpuTicks(String pidStat) {
    int close = pidStat.lastIndexOf(')');
    if (close < 0) {
      return -1;
    }
    String[] f = columns(pidStat.substring(close + 1));
    // f[0] is field 3 (state), so field N is f[N - 3].
    if (f.length < 13) {
      return -1;
    }
    long utime = number(f[11]);
    long stime = number(f[12]);
    return utime < 0 || stime < 0 ? -1 : utime + stime;
  }

  /** The /proc/diskstats lines of the named devices, in the order the kernel lists them. */
  public static List<DiskCounters> disks(String diskstats, Set<String> devices) {
    List<DiskCounters> out = new ArrayList<>();
    for (String line : diskstats.split("\n")) {
      String[] f = columns(line);
      if (f.length < 14 || !devices.contains(f[2])) {
        continue;
      }
      out.add(
          DiskCounters.newBuilder()
              .setDevice(f[2])
              .setReads(field(f, 3))
              .setSectorsRead(field(f, 5))
              .setReadMillis(field(f, 6))
              .setWrites(field(f, 7))
              .setSectorsWritten(field(f, 9))
              .setWriteMillis(field(f, 10))
              .setIoMillis(field(f, 12))
              .setWeightedIoMillis(field(f, 13))
              .build());
    }
    return out;
  }

  /** Every interface of /proc/net/dev ("name: rx_bytes rx_packets ... tx_bytes tx_packets ..."). */
  public static List<NetCounters> interfaces(String netDev) {
    List<NetCounters> out = new ArrayList<>();
    for (String line : netDev.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon).trim();
      String[] f = columns(line.substring(colon + 1));
      if (name.isEmpty() || f.length < 10 || number(f[0]) < 0) {
        continue;
      }
      out.add(
          NetCounters.newBuilder()
              .setName(name)
              .setRxBytes(field(f, 0))
              .setRxPackets(field(f, 1))
              .setTxBytes(field(f, 8))
              .setTxPackets(field(f, 9))
              .build());
    }
    return out;
  }

  /** One "Name: N kB" entry of /proc/meminfo, in bytes; 0 when absent. */
  public static long meminfoBytes(String meminfo, String name) {
    String prefix = name + ":";
    String line = firstLine(meminfo, prefix);
    if (line == null) {
      return 0;
    }
    String[] f = columns(line.substring(prefix.length()));
    long v = number(f[0]);
    if (v < 0) {
      return 0;
    }
    return f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v;
  }

  /** /sys/class/net/IF/speed in Mb/s; 0 when unknown (the kernel says -1 or refuses the read). */
  public static long linkSpeedMbps(String speed) {
    long v = number(speed.trim());
    return Math.max(0, v);
  }

  /** The first line of {@code text} that starts with {@code prefix}, or null. */
  private static String firstLine(String text, String prefix) {
    for (String line : text.split("\n")) {
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    return null;
  }

  /** The whitespace-separated columns of {@code s}. */
  private static String[] columns(String s) {
    return s.trim().split("\\s+");
  }

  private static long field(String[] f, int i) {
    return i < f.length ? Math.max(0, number(f[i])) : 0;
  }

  /**
   * A non-negative decimal, or -1. Counters are unsigned 64-bit; the rare wrap past Long.MAX reads
   * as -1.
   */
  static long number(String s) {
    if (s.isEmpty() || s.length() > 19) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v < 0 ? -1 : v;
  }
}

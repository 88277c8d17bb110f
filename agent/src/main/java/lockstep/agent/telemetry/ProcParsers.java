package lockstep.agent.telemetry;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
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
  /** /proc/stat's "cpu" line: the label, then ticks per state (proc(5)). */
  private static final Columns CPU =
      Columns.of(
          CpuTicks.getDescriptor(),
          "cpu user nice system idle iowait irq softirq steal guest guest_nice");

  /** A /proc/diskstats line (Documentation/admin-guide/iostats.rst); times are in ms. */
  private static final Columns DISKSTATS =
      Columns.of(
          DiskCounters.getDescriptor(),
          "major minor device reads reads_merged sectors_read read_millis writes writes_merged"
              + " sectors_written write_millis in_flight io_millis weighted_io_millis");

  /** A /proc/net/dev line after "name:", receive columns then transmit columns. */
  private static final Columns NET_DEV =
      Columns.of(
          NetCounters.getDescriptor(),
          "rx_bytes rx_packets rx_errs rx_drop rx_fifo rx_frame rx_compressed rx_multicast"
              + " tx_bytes tx_packets tx_errs tx_drop tx_fifo tx_colls tx_carrier tx_compressed");

  private ProcParsers() {}

  /**
   * Where each counter of a message stands in a kernel file's line: a message's uint64 field is the
   * column of the same name, so the kernel's documented layout is written once, as names.
   */
  private record Columns(FieldDescriptor[] fields, int[] at) {
    static Columns of(Descriptor message, String layout) {
      List<String> names = List.of(layout.split(" "));
      List<FieldDescriptor> fields = new ArrayList<>();
      for (FieldDescriptor fd : message.getFields()) {
        if (fd.getType() == FieldDescriptor.Type.UINT64) {
          fields.add(fd);
        }
      }
      int[] at = new int[fields.size()];
      for (int i = 0; i < at.length; i++) {
        at[i] = names.indexOf(fields.get(i).getName());
        if (at[i] < 0) {
          throw new IllegalStateException(
              fields.get(i).getFullName() + " names no column of \"" + layout + "\"");
        }
      }
      return new Columns(fields.toArray(FieldDescriptor[]::new), at);
    }

    /** Each counter from its column of {@code f}; a column the line lacks reads as 0. */
    <B extends Message.Builder> B fill(B b, String[] f) {
      for (int i = 0; i < fields.length; i++) {
        b.setField(fields[i], field(f, at[i]));
      }
      return b;
    }
  }

  /** The aggregate "cpu" line of /proc/stat; missing columns (old kernels) read as 0. */
  public static CpuTicks cpu(String procStat) {
    String line = firstLine(procStat, "cpu ");
    if (line == null) {
      return CpuTicks.getDefaultInstance();
    }
    return CPU.fill(CpuTicks.newBuilder(), columns(line)).build();
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
      out.add(DISKSTATS.fill(DiskCounters.newBuilder().setDevice(f[2]), f).build());
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
      out.add(NET_DEV.fill(NetCounters.newBuilder().setName(name), f).build());
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

package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;

/**
 * Where the time went, per plan step: the likely bottleneck from the nodes' resource samples, with
 * the figure that shows it. Rules, first match wins (docs/results.md, "Bottleneck rules"):
 * storage-bound (a node's device busy), network-bound (an interface near its link speed), CPU-bound
 * (a node's CPUs busy; says how much of it the workload's own processes used), waiting (lock
 * workloads: workers inside lock calls while CPU and device idle), else no single bottleneck.
 * Separately: page cache (buffered writes still dirty at the end).
 */
public final class Bottlenecks {
  /** A device busy (I/O in flight) at least this share of the run: storage-bound. */
  static final double STORAGE_BUSY_PERCENT = 80;

  /** An interface's busier direction at least this share of its link speed: network-bound. */
  static final double NETWORK_LINK_PERCENT = 80;

  /** All CPUs together busy at least this share of the run: CPU-bound. */
  static final double CPU_BUSY_PERCENT = 85;

  /**
   * The workload's own processes used at least this share of the busy CPU: may be Lockstep's limit.
   */
  static final double OWN_PROCESSES_SHARE = 0.5;

  /** Waiting: workers inside lock ops at least this share of their time ... */
  static final double WAITING_LOCK_SHARE = 0.5;

  /** ... while every node's device stays below this ... */
  static final double WAITING_DEVICE_PERCENT = 50;

  /**
   * ... and its CPU is not saturated, or under this share of a saturated CPU is the lock workers'
   * own.
   */
  static final double WAITING_OWN_CPU_SHARE = 0.25;

  /** Above this, a waiting line says whose the CPU time is (a local file-system daemon's, say). */
  static final double WAITING_CPU_NOTED_PERCENT = 50;

  /** Buffered writes: Dirty at the end at least this share of the bytes written (and 1 MiB). */
  static final double PAGE_CACHE_SHARE = 0.25;

  static final long PAGE_CACHE_MIN_BYTES = 1 << 20;

  private Bottlenecks() {}

  public static List<Finding> of(RunRecord run) {
    Map<String, List<NodeLoad>> groups = NodeLoad.byGroup(run);
    Map<String, Integer> stepNodes = new LinkedHashMap<>();
    run.steps().forEach(s -> stepNodes.putIfAbsent(s.group(), s.nodes().size()));
    Map<String, NodeLoad> solo = new LinkedHashMap<>();
    groups.forEach(
        (g, loads) -> {
          if (stepNodes.get(g) == 1) {
            loads.forEach(l -> solo.putIfAbsent(l.node(), l));
          }
        });
    WorkloadKind<?> kind = run.kind();
    boolean pageCacheWrites = kind != null && kind.pageCacheWrites(run.workload());
    List<Finding> out = new ArrayList<>();
    groups.forEach(
        (g, loads) -> {
          Finding judged =
              judge(
                  g,
                  loads,
                  stepNodes.get(g) > 1 ? solo : Map.of(),
                  LockWait.of(run, stepNodes.get(g)));
          if (judged.type() == FindingCode.NO_BOTTLENECK && stepNodes.get(g) > 1) {
            judged = ClusterLockWaits.of(run, g, loads).orElse(judged);
          }
          out.add(judged);
          if (pageCacheWrites) {
            pageCache(g, loads).ifPresent(out::add);
          }
        });
    return List.copyOf(out);
  }

  /**
   * A step's loads as the rules read them: the busiest device, the interface nearest its link speed
   * (null: none has one), the busiest CPUs, and the node whose workers spent the least of their
   * time inside lock calls (null: not measured).
   */
  record StepLoad(NodeLoad disk, NodeLoad net, NodeLoad cpu, NodeLoad lock, double maxIfaceMBps) {
    static StepLoad of(List<NodeLoad> loads) {
      return new StepLoad(
          max(loads, NodeLoad::deviceBusyPercent),
          loads.stream()
              .filter(l -> l.linkPercent() != null)
              .max(Comparator.comparingDouble(NodeLoad::linkPercent))
              .orElse(null),
          max(loads, NodeLoad::cpuBusyPercent),
          loads.stream()
              .filter(l -> l.lockWaitShare() != null)
              .min(Comparator.comparingDouble(NodeLoad::lockWaitShare))
              .orElse(null),
          max(loads, NodeLoad::ifaceMBps).ifaceMBps());
    }

    /** A lock workload's workers inside lock calls most of their time, on an idle device. */
    boolean workersWait(LockWait lockWait) {
      return lockWait != null
          && lock != null
          && lock.lockWaitShare() >= WAITING_LOCK_SHARE
          && disk.deviceBusyPercent() < WAITING_DEVICE_PERCENT;
    }
  }

  /**
   * The rules, first match wins: what bound a step, from its loads alone (the words are {@link
   * #words}'s).
   *
   * @param lockWait what a lock workload's workers wait on; null for a workload without locks
   */
  static FindingCode decide(StepLoad s, LockWait lockWait) {
    if (s.disk().hasDevice() && s.disk().deviceBusyPercent() >= STORAGE_BUSY_PERCENT) {
      return FindingCode.STORAGE_BOUND;
    }
    if (s.net() != null && s.net().linkPercent() >= NETWORK_LINK_PERCENT) {
      return FindingCode.NETWORK_BOUND;
    }
    boolean workersWait = s.workersWait(lockWait);
    // Lock workers that sit in lock calls while the CPU goes mostly to others (a file-system
    // daemon on the same node) are waiting on the file system, not CPU-bound themselves.
    if (s.cpu().cpuBusyPercent() >= CPU_BUSY_PERCENT
        && !(workersWait && s.cpu().workloadShareOfBusy() < WAITING_OWN_CPU_SHARE)) {
      return FindingCode.CPU_BOUND;
    }
    // Workers that spend most of their time inside lock calls, on an idle device, with the
    // CPU not saturated by the workload itself: waiting, whoever else uses the CPU.
    return workersWait ? lockWait.code() : FindingCode.NO_BOTTLENECK;
  }

  /**
   * The step's bottleneck finding.
   *
   * @param solo each node's loads alone, for a step of several nodes; empty for a one-node step
   * @param lockWait what a lock workload's workers wait on; null for a workload without locks
   */
  static Finding judge(
      String step, List<NodeLoad> loads, Map<String, NodeLoad> solo, LockWait lockWait) {
    StepLoad s = StepLoad.of(loads);
    FindingCode code = decide(s, lockWait);
    String text = words(code, s, loads.size(), solo, lockWait);
    return new Finding(code, Severity.INFO, "Step " + step + ": " + text + ".", step);
  }

  /** What {@link #decide} found, in words, with the figures that show it. */
  private static String words(
      FindingCode code, StepLoad s, int nodes, Map<String, NodeLoad> solo, LockWait lockWait) {
    String while_ = solo.isEmpty() ? "" : " while together";
    NodeLoad disk = s.disk();
    NodeLoad cpu = s.cpu();
    return switch (code) {
      case STORAGE_BOUND -> {
        NodeLoad alone = solo.get(disk.node());
        String aloneText =
            alone == null || !alone.hasDevice()
                ? ""
                : f(
                    disk.watchOnly() ? " (%.0f%% with one node's workload)" : " (%.0f%% alone)",
                    alone.deviceBusyPercent());
        yield f(
            "storage-bound: node %s's device %s busy %.0f%%%s%s, %.1f MB/s%s",
            disk.node(),
            disk.device(),
            disk.deviceBusyPercent(),
            while_,
            aloneText,
            disk.deviceMBps(),
            served(disk));
      }
      case NETWORK_BOUND ->
          f(
              "network-bound: %.0f MB/s on %s of node %s, %.0f%% of its %s link%s",
              s.net().ifaceMBps(),
              s.net().iface(),
              s.net().node(),
              s.net().linkPercent(),
              link(s.net().linkMbps()),
              served(s.net()));
      case CPU_BOUND -> {
        double own = cpu.workloadShareOfBusy();
        String why =
            own >= OWN_PROCESSES_SHARE
                ? " (the figure may be Lockstep's limit, not the file system's)"
                : " (mostly outside the workload's processes: the file system's daemons, the"
                    + " kernel or other load)";
        String baseline =
            cpu.baselineCpuBusyPercent() == null
                ? ""
                : f(
                    " (%.0f%% in the idle baseline before the start)",
                    cpu.baselineCpuBusyPercent());
        if (cpu.watchOnly()) {
          yield f(
              "CPU-bound on %s: %.0f%% busy%s%s%s",
              cpu.node(), cpu.cpuBusyPercent(), while_, baseline, served(cpu));
        }
        yield f(
            "CPU-bound on %s: %.0f%% busy%s%s, %.0f%% of it in the workload's own processes%s",
            cpu.node(), cpu.cpuBusyPercent(), while_, baseline, own * 100, why);
      }
      case WAITING, RING_WAITING -> {
        String who = nodes > 1 ? "the nodes wait" : "node " + s.lock().node() + " waits";
        String whose =
            cpu.cpuBusyPercent() < WAITING_CPU_NOTED_PERCENT
                ? ""
                : f(
                    " (%.0f%% of it in the workload's own processes; the rest is the file"
                        + " system's daemons, the kernel or other load)",
                    cpu.workloadShareOfBusy() * 100);
        yield f(
            "waiting: CPU %.0f%%%s, %s, %.0f%% of the workers' time inside lock calls; %s %s",
            cpu.cpuBusyPercent(),
            whose,
            deviceText(disk),
            s.lock().lockWaitShare() * 100,
            who,
            lockWait.onWhat());
      }
      default -> {
        String lockText =
            s.lock() == null
                ? ""
                : f(
                    ", %.0f%% of the workers' time inside lock calls",
                    s.lock().lockWaitShare() * 100);
        yield f(
            "no single bottleneck: CPU at most %.0f%% busy (%s), %s%s, network at most %.1f MB/s",
            cpu.cpuBusyPercent(), cpu.node(), deviceText(disk), lockText, s.maxIfaceMBps());
      }
    };
  }

  static Optional<Finding> pageCache(String step, List<NodeLoad> loads) {
    NodeLoad d = max(loads, NodeLoad::dirtyBytes);
    if (d.dirtyBytes() >= PAGE_CACHE_MIN_BYTES && d.dirtyBytes() >= PAGE_CACHE_SHARE * d.bytes()) {
      return Optional.of(
          new Finding(
              FindingCode.PAGE_CACHE,
              Severity.WARNING,
              f(
                  "Step %s: page cache: %s dirty on node %s at the end; "
                      + "the figure includes no writeback unless fdatasync is on.",
                  step, bytes(d.dirtyBytes()), d.node()),
              step));
    }
    return Optional.empty();
  }

  /** What a watch-only node is, after the figure that names it. */
  private static String served(NodeLoad l) {
    return l.watchOnly()
        ? " (a watch-only node: it ran no workload, it serves the file system the nodes use)"
        : "";
  }

  private static String deviceText(NodeLoad disk) {
    return disk.hasDevice()
        ? f("device %.0f%% busy", disk.deviceBusyPercent())
        : "no local block device";
  }

  private static String link(Long mbps) {
    return mbps != null && mbps >= 1000 && mbps % 1000 == 0
        ? (mbps / 1000) + " Gb/s"
        : mbps + " Mb/s";
  }

  public static String bytes(long b) {
    if (b >= 1e9) {
      return f("%.1f GB", b / 1e9);
    }
    return b >= 1e6 ? f("%.0f MB", b / 1e6) : f("%.0f kB", b / 1e3);
  }

  private static NodeLoad max(List<NodeLoad> loads, ToDoubleFunction<NodeLoad> by) {
    return loads.stream().max(Comparator.comparingDouble(by)).orElseThrow();
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}

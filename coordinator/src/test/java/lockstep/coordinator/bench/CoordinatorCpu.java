package lockstep.coordinator.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.common.DaemonThreads;

/**
 * The CPU time of the coordinator's own threads in a JVM that also hosts in-process agents:
 * ThreadMXBean's per-thread CPU time (user + system) of the threads whose names say they are the
 * coordinator's ({@link #COORDINATOR_THREADS}: the caller's, the fan-out's, the heartbeats', the
 * deadline timer's; gRPC's default executor too where it runs only the coordinator's channel
 * callbacks, the agents' servers having an executor of their own), read every {@link
 * #PERIOD_MILLIS} ms so that a thread which ends between two reads (a step's heartbeat pool before
 * it was shared) still counts up to its last read. With {@code everyThread}, every thread is also
 * read at a mark and at the end, so {@link #byKind} shows where the rest of the process's CPU went
 * (threads that ended in between excepted). The in-process agents' threads (their servers'
 * executor, run and sampler threads, clock responders) and the JVM's own (GC, JIT) are not counted;
 * {@link #processNanos} is the whole process.
 */
final class CoordinatorCpu implements AutoCloseable {
  /** Name prefixes of the coordinator's threads. */
  static final Set<String> COORDINATOR_THREADS =
      Set.of("main", "ensemble", "heartbeat", "abort-", "call-deadlines");

  static final String GRPC_DEFAULT_EXECUTOR = "grpc-default-executor";

  static final long PERIOD_MILLIS = 100;

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final ScheduledExecutorService reader =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("cpu-meter"));

  /** Per thread id: its CPU time at the last mark and at the last read. */
  private final Map<Long, long[]> seen = new HashMap<>();

  /** Per thread id: its name with digits dropped ("heartbeat-bench-#.all"). */
  private final Map<Long, String> kinds = new HashMap<>();

  /** Whether every thread is read at a mark and at the end (for {@link #byKind}), or only ours. */
  private final boolean everyThread;

  /** Whether gRPC's default executor's threads are the coordinator's alone. */
  private final boolean grpcDefaultOurs;

  CoordinatorCpu(boolean everyThread, boolean grpcDefaultOurs) {
    this.everyThread = everyThread;
    this.grpcDefaultOurs = grpcDefaultOurs;
    if (!threads.isThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot read a thread's CPU time");
    }
    threads.setThreadCpuTimeEnabled(true);
    reader.scheduleAtFixedRate(
        () -> read(false), PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  boolean coordinators(String threadName) {
    return COORDINATOR_THREADS.stream().anyMatch(threadName::startsWith)
        || (grpcDefaultOurs && threadName.startsWith(GRPC_DEFAULT_EXECUTOR));
  }

  /** Reads the coordinator's threads (every thread with {@code all}). */
  private synchronized void read(boolean all) {
    for (long id : threads.getAllThreadIds()) {
      String kind = kinds.get(id);
      if (kind == null) {
        ThreadInfo info = threads.getThreadInfo(id);
        if (info == null) {
          continue;
        }
        kind = info.getThreadName().replaceAll("[0-9]+", "#");
        kinds.put(id, kind);
      }
      if (all || coordinators(kind)) {
        long cpu = threads.getThreadCpuTime(id);
        if (cpu >= 0) {
          // a thread first seen now started after the mark (or is too short-lived to matter)
          seen.computeIfAbsent(id, k -> new long[] {0, 0})[1] = cpu;
        }
      }
    }
  }

  /** From now on: the coordinator's CPU counts from here. */
  synchronized void mark() {
    read(everyThread);
    seen.values().forEach(v -> v[0] = v[1]);
  }

  /** The coordinator's threads' CPU since the last {@link #mark}, in ns. */
  synchronized long sinceMarkNanos() {
    read(everyThread);
    return byKind().entrySet().stream()
        .filter(e -> coordinators(e.getKey()))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  /** CPU since the last {@link #mark} per kind of thread (name without digits), in ns. */
  synchronized Map<String, Long> byKind() {
    Map<String, Long> out = new TreeMap<>();
    seen.forEach((id, v) -> out.merge(kinds.get(id), v[1] - v[0], Long::sum));
    return out;
  }

  /** The whole process's CPU time so far (every thread, the JVM's own included), in ns. */
  static long processNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public void close() {
    reader.shutdownNow();
  }
}

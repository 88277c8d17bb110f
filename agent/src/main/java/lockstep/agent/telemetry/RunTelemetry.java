package lockstep.agent.telemetry;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.ResourceTelemetry;
import lockstep.common.DaemonThreads;
import lockstep.common.WallClock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The resource samples of one run, taken on a thread of their own: one when the run is armed, one
 * just before the start instant (at least 5 ms, and 4 times as long as the first sample took,
 * before it; together the idle baseline; it is also the run's first sample), then one every period
 * from the instant on (longer where a sample costs more than {@link #CPU_BUDGET} of a CPU) until
 * {@link #finish}, which takes the last. The measured threads never wait for it.
 */
public final class RunTelemetry {
  private static final Logger LOG = LogManager.getLogger(RunTelemetry.class);

  /**
   * The edge sample is taken this long before the instant, not at it: reading /proc takes a thread
   * and milliseconds of CPU, and at the instant every core is wanted by the workload's own threads
   * waking up (measured as start skew).
   */
  public static final long EDGE_BEFORE_START_NANOS = 5_000_000;

  /** ... or this many times as long as the armed sample took, if that is more. */
  static final int EDGE_SAMPLE_TIMES = 4;

  private final ResourceSampler sampler;
  private final long startAtUnixNanos;
  private final List<ResourceSample> baseline = new ArrayList<>();
  private final List<ResourceSample> samples = new ArrayList<>();
  private final ScheduledExecutorService thread;
  // The mean cost of the last few samples sets the pace: the budget is an average, a one-off
  // costly sample (a just-started agent's interpreted parsing, a GC) stretches only the next few
  // waits. (Paced by the cheapest sample ever, the sampler's thread took 2.8% of a lab guest's
  // CPU against its 1%.)
  private final RecentCosts costs = new RecentCosts(RECENT_SAMPLES);

  private RunTelemetry(ResourceSampler sampler, long startAtUnixNanos, String name) {
    this.sampler = sampler;
    this.startAtUnixNanos = startAtUnixNanos;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("telemetry-" + name));
  }

  /** Takes the first baseline sample now and schedules the rest. */
  public static RunTelemetry start(
      ResourceSampler sampler, long startAtUnixNanos, long periodMillis, String name) {
    RunTelemetry t = new RunTelemetry(sampler, startAtUnixNanos, name);
    long period = TimeUnit.MILLISECONDS.toNanos(periodMillis);
    long toStart = startAtUnixNanos - WallClock.nowNanos();
    t.thread.execute(
        () -> {
          long began = System.nanoTime();
          t.take(false);
          // The edge sample must be over before the instant: a just-started agent's sample
          // (interpreted /proc parsing) takes milliseconds, and with it running beside the
          // waking workload threads fresh agents started 2-3 ms later (docs/performance.md).
          long lead =
              Math.max(EDGE_BEFORE_START_NANOS, EDGE_SAMPLE_TIMES * (System.nanoTime() - began));
          t.thread.schedule(
              () -> t.take(true),
              Math.max(0, startAtUnixNanos - lead - WallClock.nowNanos()),
              TimeUnit.NANOSECONDS);
        });
    t.scheduleSample(Math.max(0, toStart) + period, period);
    return t;
  }

  /**
   * The sampler's share of one CPU at most. A sample that costs more CPU than this share of the
   * period stretches the next wait: on the lab's software-emulated one-CPU guests a sample costs
   * about 5.5 ms of CPU (the host: 0.17 ms), and sampling every 100 ms there cost ping-pong 30-40%
   * of its rate (with {@code telemetry: false} it rose from 2,643 to 3,793 locks/s).
   */
  static final double CPU_BUDGET = 0.01;

  /** How many of the latest samples' costs the pace is taken from. */
  static final int RECENT_SAMPLES = 5;

  /**
   * The wait before the next periodic sample, given what a sample costs in CPU ({@code
   * Long.MAX_VALUE}: none has been taken yet, so the period).
   */
  static long nextDelayNanos(long periodNanos, long sampleCpuNanos) {
    if (sampleCpuNanos == Long.MAX_VALUE) {
      return periodNanos;
    }
    return Math.max(periodNanos, (long) (sampleCpuNanos / CPU_BUDGET));
  }

  private void scheduleSample(long delayNanos, long periodNanos) {
    try {
      thread.schedule(
          () -> {
            take(false);
            scheduleSample(nextDelayNanos(periodNanos, costs.mean()), periodNanos);
          },
          delayNanos,
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // finished: no more samples
    }
  }

  private static long threadCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    return mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : System.nanoTime();
  }

  /**
   * @param edge the sample between the baseline and the run (else placed by its time)
   */
  private void take(boolean edge) {
    try {
      long cpu = threadCpuNanos();
      ResourceSample s = sampler.sample();
      synchronized (this) {
        boolean first = samples.isEmpty() && (edge || s.getAtUnixNanos() >= startAtUnixNanos);
        if (first || samples.isEmpty()) {
          baseline.add(s);
        }
        if (first || !samples.isEmpty()) {
          samples.add(s);
        }
      }
      costs.add(threadCpuNanos() - cpu);
    } catch (RuntimeException e) {
      LOG.warn("resource sample failed: {}", e.toString());
    }
  }

  /** The newest sample taken so far (baseline or run), or null before the first. */
  public synchronized ResourceSample latest() {
    if (!samples.isEmpty()) {
      return samples.get(samples.size() - 1);
    }
    return baseline.isEmpty() ? null : baseline.get(baseline.size() - 1);
  }

  /** Stops sampling, takes the last sample and returns all of them. */
  public ResourceTelemetry finish() {
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("telemetry thread did not stop within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    take(false);
    synchronized (this) {
      return ResourceTelemetry.newBuilder()
          .setDevice(sampler.device())
          .addAllSlaveDevices(sampler.slaveDevices())
          .putAllLinkSpeedMbps(sampler.linkSpeeds())
          .setCpuCount(sampler.cpuCount())
          .addAllBaseline(baseline)
          .addAllSamples(samples)
          .build();
    }
  }
}

package lockstep.agent.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import lockstep.agent.metrics.RunView;
import lockstep.agent.security.CallerIdentity;
import lockstep.agent.telemetry.ResourceSampler;
import lockstep.agent.telemetry.RunTelemetry;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.Workload;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** One run on this agent: prepared -> armed -> running -> succeeded/failed/aborted. */
public final class Run {
  /** How often a running run's progress and resources are sampled (the progress cadence). */
  public static final long SAMPLE_MILLIS = 100;

  private static final Logger LOG = LogManager.getLogger(Run.class);

  /**
   * What a run is, fixed when it is prepared; the rest of a {@link Run} is its lifecycle.
   *
   * @param node the node it runs on
   * @param leaseMillis how long the run lasts without a call about it ({@link Leases})
   * @param owner the caller who prepared it, the only one who may touch it ({@link CallerIdentity})
   * @param by where it was prepared from (the peer address of the Prepare call)
   * @param atMillis when, by the agent's wall clock
   * @param sampler null when the run takes no resource samples
   */
  public record Prepared(
      String runId,
      String node,
      WorkloadSpec spec,
      Workload workload,
      long leaseMillis,
      String owner,
      String by,
      long atMillis,
      ResourceSampler sampler) {}

  private final Prepared prepared;
  private RunTelemetry telemetry;
  private final List<ProgressSample> series = new ArrayList<>();
  private volatile RunState state = RunState.RUN_STATE_PREPARED;
  private volatile long startAt;
  private volatile WorkloadResult result;
  private volatile long lastTouchMillis;
  private volatile String abortReason;
  private Thread runner;
  private final CompletableFuture<Void> finished = new CompletableFuture<>();
  private final Object cleanupLock = new Object();
  private volatile boolean cleanupStarted;
  private volatile boolean cleanedOnRequest;
  private volatile long cleanedAtMillis;
  private volatile long peerGoneAtMillis;
  private CleanupReport cleaned;

  /** Runs once the workload's files are removed (the run's manifest goes). */
  private final Runnable afterCleanup;

  Run(Prepared prepared, Runnable afterCleanup) {
    this.prepared = prepared;
    this.afterCleanup = afterCleanup;
    this.lastTouchMillis = prepared.atMillis(); // the lease runs from the prepare
  }

  public Prepared prepared() {
    return prepared;
  }

  /** The run's id, its key in the registry. */
  public String runId() {
    return prepared.runId();
  }

  /** Refuses {@code call} (named in the refusal) unless {@code caller} prepared the run. */
  public void checkOwner(String caller, String call) {
    checkOwner(prepared.runId(), prepared.node(), prepared.owner(), caller, call);
  }

  /**
   * Refuses {@code call} of run {@code runId} on {@code node} unless {@code caller} is its {@code
   * owner}; the refusal names both as others may see them.
   */
  static void checkOwner(String runId, String node, String owner, String caller, String call) {
    if (!owner.equals(caller)) {
      throw new RunException.NotOwner(
          call
              + " of run "
              + runId
              + " on node "
              + node
              + " refused: the run belongs to "
              + CallerIdentity.shown(owner)
              + ", who prepared it; this call comes from "
              + CallerIdentity.shown(caller));
    }
  }

  /** Why the run was aborted (its lease ran out, the coordinator asked), or null. */
  public String abortReason() {
    return abortReason;
  }

  /**
   * Whether cleanup (by the coordinator or the lease) has begun: the run holds nothing any more.
   */
  boolean cleanupStarted() {
    return cleanupStarted;
  }

  /**
   * Whether its cleanup was asked for by its owner (an Abort with remove_files), not by its lease.
   */
  public boolean cleanedOnRequest() {
    return cleanedOnRequest;
  }

  /** When cleanup ended, 0 while it has not. */
  public long cleanedAtMillis() {
    return cleanedAtMillis;
  }

  void touch() {
    lastTouchMillis = System.currentTimeMillis();
  }

  /**
   * Why the lease ran out, or null while it holds: no call for leaseMillis, or the connection of
   * whoever prepared the run closed {@link Leases#PEER_GONE_GRACE_MILLIS} ago and no call came
   * since (its process died).
   */
  String leaseExpiry(long nowMillis) {
    if (cleanupStarted) {
      return null;
    }
    long gone = peerGoneAtMillis;
    if (gone > 0 && lastTouchMillis <= gone && nowMillis - gone > Leases.PEER_GONE_GRACE_MILLIS) {
      return "the connection of "
          + prepared.by()
          + " closed and no call came within "
          + Leases.PEER_GONE_GRACE_MILLIS
          + " ms";
    }
    if (nowMillis - lastTouchMillis > prepared.leaseMillis()) {
      return "lease ran out: no call from the coordinator for " + prepared.leaseMillis() + " ms";
    }
    return null;
  }

  /** The connection the run was prepared over closed now. */
  void peerGone(long nowMillis) {
    peerGoneAtMillis = nowMillis;
  }

  public RunState state() {
    RunState s = state;
    if (s == RunState.RUN_STATE_ARMED && WallClock.nowNanos() >= startAt) {
      return RunState.RUN_STATE_RUNNING;
    }
    return s;
  }

  public static boolean isFinal(RunState s) {
    return s == RunState.RUN_STATE_SUCCEEDED
        || s == RunState.RUN_STATE_FAILED
        || s == RunState.RUN_STATE_ABORTED;
  }

  /** Arms the run for the instant; repeating the same instant is a no-op. */
  public synchronized RunState arm(long startAtUnixNanos) {
    if (startAtUnixNanos <= 0) {
      throw new RunException.Invalid("start_at_unix_nanos must be set");
    }
    if (state != RunState.RUN_STATE_PREPARED) {
      if (startAt == startAtUnixNanos) {
        return state();
      }
      throw new RunException.IllegalTransition(
          "run " + prepared.runId() + " is already " + state() + " for another start instant");
    }
    startAt = startAtUnixNanos;
    state = RunState.RUN_STATE_ARMED;
    if (prepared.sampler() != null) {
      telemetry = RunTelemetry.start(prepared.sampler(), startAt, SAMPLE_MILLIS, prepared.runId());
    }
    runner = new Thread(this::execute, "run-" + prepared.runId());
    runner.start();
    return state();
  }

  private void execute() {
    WorkloadResult.Builder r;
    try {
      r = prepared.workload().run(startAt);
    } catch (RuntimeException e) {
      LOG.error("run {} failed", prepared.runId(), e);
      r =
          WorkloadResult.newBuilder()
              .setState(RunState.RUN_STATE_FAILED)
              .setError(WorkloadError.newBuilder().setOperation("run").setMessage(e.toString()));
    }
    WorkloadSpec spec = prepared.spec();
    r.setIntendedStartUnixNanos(startAt).setWorkers(WorkloadKind.of(spec).workers(spec));
    if (telemetry != null) {
      r.setTelemetry(telemetry.finish());
    }
    if (abortReason != null) {
      // what the workload met after the abort (workers killed, files gone) follows from it: the
      // reason is the error
      r.setState(RunState.RUN_STATE_ABORTED);
      r.setError(WorkloadError.newBuilder().setOperation("abort").setMessage(abortReason));
    }
    synchronized (this) {
      closeSeries(r);
      r.addAllSeries(series);
      result = r.build();
      state = result.getState();
    }
    finished.complete(null);
    LOG.info(
        "run {} {}: {} ops, {} bytes", prepared.runId(), state, result.getOps(), result.getBytes());
  }

  /**
   * Ends the series where the work ended (see {@link #seriesEnd}) with the final counts. A count
   * read exactly (a worker's mapped page) stands still between the last op and the run's result,
   * and samples from that gap would read as a stall at the end of every run.
   */
  private void closeSeries(WorkloadResult.Builder r) {
    WorkloadSpec spec = prepared.spec();
    long timed = WorkloadKind.of(spec).timedMillis(spec) * 1_000_000L;
    // a timed workload's warm-up after its window mirrors the one before it (ping-pong's)
    long windowEnd = timed > 0 ? startAt + timed - r.getMeasureDelayNanos() : 0;
    long cut = seriesEnd(r.getEndUnixNanos(), windowEnd, WallClock.nowNanos());
    if (cut <= startAt || state != RunState.RUN_STATE_ARMED) {
      sample();
      return;
    }
    series.removeIf(p -> p.getAtUnixNanos() >= cut);
    series.add(progressAt(cut));
  }

  /**
   * Where a run's series ends: at its last op, or at the end of its timed window if the work stood
   * still before it (a survivor stalled until its run ended), never later than now (an aborted
   * run); now where the run has no last op.
   */
  static long seriesEnd(long lastOpEnd, long windowEnd, long now) {
    if (lastOpEnd <= 0) {
      return now;
    }
    return Math.min(Math.max(lastOpEnd, windowEnd), now);
  }

  /** Appends one progress sample while running; called by the agent's sampler. */
  synchronized void sample() {
    // The state field stays ARMED while the workload runs; final states take no samples.
    if (state == RunState.RUN_STATE_ARMED && WallClock.nowNanos() >= startAt) {
      series.add(progress());
    }
  }

  public ProgressSample progress() {
    return progressAt(WallClock.nowNanos());
  }

  /** The counts so far, stamped {@code atUnixNanos}. */
  private ProgressSample progressAt(long atUnixNanos) {
    return ProgressSample.newBuilder()
        .setAtUnixNanos(atUnixNanos)
        .setOps(prepared.workload().opsSoFar())
        .setBytes(prepared.workload().bytesSoFar())
        .build();
  }

  /** Runs {@code action} once the run has reached a final state (at once if it has). */
  public void whenFinished(Runnable action) {
    finished.thenRun(action);
  }

  /** What a metrics scrape shows of this run ({@code lockstep-agent --metrics}). */
  public synchronized RunView view() {
    ResourceSample latest = telemetry == null ? null : telemetry.latest();
    WorkloadResult r = result;
    return new RunView(
        prepared.runId(),
        WorkloadKind.of(prepared.spec()).name(),
        state(),
        r != null ? r.getOps() : prepared.workload().opsSoFar(),
        r != null ? r.getBytes() : prepared.workload().bytesSoFar(),
        latest,
        prepared.sampler() != null);
  }

  public WorkloadResult result() {
    WorkloadResult r = result;
    if (r != null) {
      return r;
    }
    return WorkloadResult.newBuilder()
        .setState(state())
        .setIntendedStartUnixNanos(startAt)
        .setOps(prepared.workload().opsSoFar())
        .setBytes(prepared.workload().bytesSoFar())
        .build();
  }

  public synchronized RunState abort(String reason) {
    if (isFinal(state)) {
      return state;
    }
    abortReason = reason == null || reason.isBlank() ? "requested by coordinator" : reason;
    LOG.warn("run {} aborted: {}", prepared.runId(), abortReason);
    prepared.workload().abort();
    if (state == RunState.RUN_STATE_PREPARED) {
      state = RunState.RUN_STATE_ABORTED;
      result =
          WorkloadResult.newBuilder()
              .setState(state)
              .setError(WorkloadError.newBuilder().setOperation("abort").setMessage(abortReason))
              .build();
      finished.complete(null);
    }
    return state;
  }

  /**
   * Aborts the run if it still goes, waits for it, removes its files; once. Later calls return the
   * first one's report (the lease and the coordinator may both clean a run).
   */
  CleanupReport cleanup(String reason) {
    return cleanup(reason, false);
  }

  /**
   * As {@link #cleanup(String)}, asked for by the run's owner (Abort with remove_files) rather than
   * its lease.
   */
  public CleanupReport cleanupOnRequest(String reason) {
    return cleanup(reason, true);
  }

  private CleanupReport cleanup(String reason, boolean onRequest) {
    synchronized (cleanupLock) {
      if (cleaned == null) {
        cleanedOnRequest = onRequest;
        cleanupStarted = true;
        cleaned = doCleanup(reason);
        cleanedAtMillis = System.currentTimeMillis();
      }
      return cleaned;
    }
  }

  private CleanupReport doCleanup(String reason) {
    abort(reason);
    Thread t;
    synchronized (this) {
      t = runner;
    }
    if (t != null) {
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    CleanupReport report = prepared.workload().cleanup();
    afterCleanup.run();
    return report;
  }
}

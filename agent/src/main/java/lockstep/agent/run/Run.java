package lockstep.agent.run;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
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
import lockstep.agent.workload.WatchOnly;
import lockstep.agent.workload.Workload;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One run on this agent, a state machine: prepared -> armed -> running -> succeeded, failed or
 * aborted, each move checked against {@link RunStates}. The run is its own one lock: its state,
 * instant, result, abort reason, series and cleanup change under it. Its owner is fixed at prepare
 * and checked by the run ({@link #checkOwner}); its cleanup (files removed) happens once, after the
 * run has ended.
 *
 * <p>What it asks of the registry's timer follows its state: its progress is sampled every {@link
 * #SAMPLE_MILLIS} ms only while it is RUNNING (a final run's series is final), and its lease is
 * checked only when due, until its cleanup begins ({@link Lease}). A run prepared, ended or cleaned
 * costs the timer next to nothing.
 */
public final class Run {
  /** How often a running run's progress and resources are sampled (the progress cadence). */
  public static final long SAMPLE_MILLIS = 100;

  /** How long a cleanup waits for an aborted workload to return before removing its files. */
  private static final long END_WAIT_MILLIS = 30_000;

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

  /** A cleanup begun: asked for by the owner (Abort with remove_files) or by the lease. */
  private record Cleanup(boolean onRequest, CompletableFuture<CleanupReport> report) {}

  private final Prepared prepared;
  private final Lease lease;

  /**
   * The registry's timer: moves the run to RUNNING at its instant, samples it while it runs, checks
   * its lease when due.
   */
  private final ScheduledExecutorService timer;

  /** Told once the workload's files are removed (the run's manifest goes). */
  private final Consumer<Run> afterCleanup;

  /** Completed once the run is in a final state. */
  private final CompletableFuture<Void> finished = new CompletableFuture<>();

  // guarded by this
  private RunState state = RunState.RUN_STATE_PREPARED;
  private long startAt;
  private RunTelemetry telemetry;
  private final ProgressSeries series;
  private WorkloadResult result;
  private String abortReason;
  private Cleanup cleanup;
  private long cleanedAtMillis;

  /** The progress samples' task, while the run is RUNNING. */
  private ScheduledFuture<?> sampling;

  Run(Prepared prepared, ScheduledExecutorService timer, Consumer<Run> afterCleanup) {
    this.prepared = prepared;
    this.lease = new Lease(prepared.leaseMillis(), prepared.by(), prepared.atMillis());
    this.series = new ProgressSeries(prepared.workload());
    this.timer = timer;
    this.afterCleanup = afterCleanup;
  }

  public Prepared prepared() {
    return prepared;
  }

  /** The run's id, its key in the registry. */
  public String runId() {
    return prepared.runId();
  }

  public synchronized RunState state() {
    return state;
  }

  /** Moves to {@code to}, if the table allows it from where the run is. */
  private void move(RunState to) {
    if (!RunStates.allows(state, to)) {
      throw new RunException.IllegalTransition(
          "run " + prepared.runId() + " cannot go from " + state + " to " + to);
    }
    state = to;
  }

  public static boolean isFinal(RunState s) {
    return RunStates.isFinal(s);
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

  /** A call about the run came: its lease starts again. */
  void touch() {
    lease.renew();
  }

  /** The connection the run was prepared over closed now. */
  void peerGone(long nowMillis) {
    lease.peerGone(nowMillis);
  }

  /**
   * Tells {@code onExpiry} why (on the timer's thread) if the lease runs out before the run's
   * cleanup begins.
   */
  void watchLease(Consumer<String> onExpiry) {
    lease.watch(timer, onExpiry);
  }

  /** Whether a lease check is pending on the timer. */
  boolean leaseWatched() {
    return lease.watched();
  }

  /** Whether progress samples are being taken (only while RUNNING). */
  synchronized boolean sampling() {
    return sampling != null;
  }

  /** Why the lease ran out, or null while it holds or once the run's cleanup has begun. */
  String leaseExpiry(long nowMillis) {
    return cleanupStarted() ? null : lease.expiry(nowMillis);
  }

  /** Arms the run for the instant; repeating the same instant is a no-op. */
  public synchronized RunState arm(long startAtUnixNanos) {
    if (startAtUnixNanos <= 0) {
      throw new RunException.Invalid("start_at_unix_nanos must be set");
    }
    if (state != RunState.RUN_STATE_PREPARED) {
      if (startAt == startAtUnixNanos) {
        return state;
      }
      throw new RunException.IllegalTransition(
          "run " + prepared.runId() + " is already " + state + " for another start instant");
    }
    move(RunState.RUN_STATE_ARMED);
    startAt = startAtUnixNanos;
    if (prepared.sampler() != null) {
      telemetry = RunTelemetry.start(prepared.sampler(), startAt, SAMPLE_MILLIS, prepared.runId());
    }
    try {
      timer.schedule(this::instantReached, startAt - WallClock.nowNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      // the registry is closing: the run ends at once, and its end moves it past its instant
    }
    new Thread(() -> execute(startAtUnixNanos), "run-" + prepared.runId()).start();
    return state;
  }

  /**
   * The instant came: an armed run is running (one that already ended stays as it ended), and its
   * progress is sampled from now until it ends.
   */
  private synchronized void instantReached() {
    if (state == RunState.RUN_STATE_ARMED) {
      move(RunState.RUN_STATE_RUNNING);
      try {
        sampling =
            timer.scheduleAtFixedRate(
                this::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closing) {
        // the registry is closing: the run is aborted, its series ends where it ended
      }
    }
  }

  /** The run's thread: the workload waits for the instant, works, and its result ends the run. */
  private void execute(long startAt) {
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
    RunTelemetry t;
    synchronized (this) {
      t = telemetry;
    }
    if (t != null) {
      r.setTelemetry(t.finish());
    }
    try {
      end(r);
    } catch (RuntimeException e) {
      LOG.error("run {}: its workload's result could not end it", prepared.runId(), e);
    } finally {
      finished.complete(null);
    }
    LOG.info("run {} {}: {} ops, {} bytes", prepared.runId(), state(), r.getOps(), r.getBytes());
  }

  /** The workload returned {@code r}: the run ends with it (aborted if an abort asked for it). */
  private synchronized void end(WorkloadResult.Builder r) {
    if (abortReason != null) {
      // what the workload met after the abort (workers killed, files gone) follows from it: the
      // reason is the error
      r.setState(RunState.RUN_STATE_ABORTED);
      r.setError(WorkloadError.newBuilder().setOperation("abort").setMessage(abortReason));
    }
    if (state == RunState.RUN_STATE_ARMED && WallClock.nowNanos() >= startAt) {
      move(RunState.RUN_STATE_RUNNING); // it ended before the timer marked its instant
    }
    if (sampling != null) {
      sampling.cancel(false); // the series is final from here
      sampling = null;
    }
    r.addAllSeries(series.close(r, prepared.spec(), startAt, state == RunState.RUN_STATE_RUNNING));
    result = r.build();
    move(result.getState());
  }

  /** Appends one progress sample while running; called on the registry's timer. */
  synchronized void sample() {
    if (state == RunState.RUN_STATE_RUNNING) {
      series.sample();
    }
  }

  /** The workload's counts now. */
  public ProgressSample progress() {
    return series.at(WallClock.nowNanos());
  }

  /** Runs {@code action} once the run has reached a final state (at once if it has). */
  public void whenFinished(Runnable action) {
    finished.thenRun(action);
  }

  /** What a metrics scrape shows of this run ({@code lockstep-agent --metrics}). */
  public synchronized RunView view() {
    ResourceSample latest = telemetry == null ? null : telemetry.latest();
    return new RunView(
        prepared.runId(),
        WorkloadKind.of(prepared.spec()).name(),
        state,
        result != null ? result.getOps() : prepared.workload().opsSoFar(),
        result != null ? result.getBytes() : prepared.workload().bytesSoFar(),
        latest,
        prepared.sampler() != null);
  }

  /** The result once the run has ended, else what it has done so far. */
  public synchronized WorkloadResult result() {
    if (result != null) {
      return result;
    }
    return WorkloadResult.newBuilder()
        .setState(state)
        .setIntendedStartUnixNanos(startAt)
        .setOps(prepared.workload().opsSoFar())
        .setBytes(prepared.workload().bytesSoFar())
        .build();
  }

  /** Why the run was aborted (its lease ran out, the coordinator asked), or null. */
  public synchronized String abortReason() {
    return abortReason;
  }

  /**
   * Stops the run: a prepared one is aborted at once, an armed or running one when its workload
   * returns (it is told to stop now); an ended one stays as it ended. Returns the state.
   */
  public RunState abort(String reason) {
    boolean endedNow;
    synchronized (this) {
      if (isFinal(state)) {
        return state;
      }
      abortReason = reason == null || reason.isBlank() ? "requested by coordinator" : reason;
      LOG.warn("run {} aborted: {}", prepared.runId(), abortReason);
      endedNow = state == RunState.RUN_STATE_PREPARED;
      if (endedNow) {
        move(RunState.RUN_STATE_ABORTED);
        result =
            WorkloadResult.newBuilder()
                .setState(state)
                .setError(WorkloadError.newBuilder().setOperation("abort").setMessage(abortReason))
                .build();
      }
    }
    prepared.workload().abort();
    if (endedNow) {
      finished.complete(null);
    }
    return state();
  }

  /**
   * Ends a watch-only run ({@link WatchOnly}) as its step's workload has ended elsewhere, and waits
   * (bounded) for its result; returns the state. A run with a workload is not ended this way.
   */
  public RunState finish() {
    if (!(prepared.workload() instanceof WatchOnly watch)) {
      throw new RunException.Invalid(
          "run " + prepared.runId() + " runs a workload: Finish ends only a watch-only run");
    }
    synchronized (this) {
      if (state == RunState.RUN_STATE_PREPARED) {
        throw new RunException.IllegalTransition(
            "run " + prepared.runId() + " was not started: nothing to finish");
      }
    }
    watch.finish();
    awaitEnd();
    return state();
  }

  /**
   * Whether cleanup (by the coordinator or the lease) has begun: the run holds nothing any more.
   */
  synchronized boolean cleanupStarted() {
    return cleanup != null;
  }

  /**
   * Whether its cleanup was asked for by its owner (an Abort with remove_files), not by its lease.
   */
  public synchronized boolean cleanedOnRequest() {
    return cleanup != null && cleanup.onRequest();
  }

  /** When cleanup ended, 0 while it has not. */
  public synchronized long cleanedAtMillis() {
    return cleanedAtMillis;
  }

  /**
   * Aborts the run if it still goes, waits for it to end, removes its files, in this thread; once.
   * Later calls get the first one's report (the lease and the coordinator may both clean a run).
   */
  CleanupReport cleanup(String reason) {
    return await(cleanup(reason, false, Runnable::run));
  }

  /** As {@link #cleanup(String)}, asked for by the run's owner (Abort with remove_files). */
  public CleanupReport cleanupOnRequest(String reason) {
    return await(cleanup(reason, true, Runnable::run));
  }

  /** As {@link #cleanup(String)}, done on {@code executor} (the lease's, which must not wait). */
  CompletableFuture<CleanupReport> cleanup(String reason, boolean onRequest, Executor executor) {
    CompletableFuture<CleanupReport> report;
    synchronized (this) {
      if (cleanup != null) {
        return cleanup.report();
      }
      report = new CompletableFuture<>();
      cleanup = new Cleanup(onRequest, report);
    }
    lease.stop(); // a run being cleaned has no lease to run out
    executor.execute(() -> clean(reason, report));
    return report;
  }

  private void clean(String reason, CompletableFuture<CleanupReport> report) {
    try {
      abort(reason);
      awaitEnd();
      CleanupReport r = prepared.workload().cleanup();
      afterCleanup.accept(this);
      synchronized (this) {
        cleanedAtMillis = System.currentTimeMillis();
      }
      report.complete(r);
    } catch (RuntimeException e) {
      LOG.error("run {}: cleanup failed", prepared.runId(), e);
      report.completeExceptionally(e);
    }
  }

  /** Waits (bounded) for the run to reach a final state: its workload no longer works. */
  private void awaitEnd() {
    try {
      finished.get(END_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn(
          "run {}: its workload did not return within {} ms of the abort; removing its files"
              + " anyway",
          prepared.runId(),
          END_WAIT_MILLIS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // finished is only ever completed normally
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static CleanupReport await(CompletableFuture<CleanupReport> report) {
    try {
      return report.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }
}

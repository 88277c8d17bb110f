package lockstep.agent.run;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.process.ResourceLimitException;
import lockstep.agent.security.CallerIdentity;
import lockstep.agent.telemetry.ResourceSampler;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.ResourceGuards;
import lockstep.agent.workload.WatchOnly;
import lockstep.agent.workload.Workload;
import lockstep.agent.workload.WorkloadFactory;
import lockstep.common.DaemonThreads;
import lockstep.common.InvalidWorkloadException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The runs this agent knows, by run id; at most one holds files, locks or workers at a time.
 * Samples each running run's progress every {@value Run#SAMPLE_MILLIS} ms and ends runs whose lease
 * ran out: they are aborted and their files removed, but their result is kept for {@link
 * Leases#RESULT_RETENTION_MILLIS} ms so that a coordinator (or `lockstep collect`) can still fetch
 * it.
 *
 * <p>All of that on one timer thread that wakes only for what is due: a running run's samples, an
 * instant, a lease check when the lease would run out, a kept result's end. An agent without a
 * running run is not woken every sample period (with a thousand agents in one JVM, as in the
 * control-plane bench, a tick per agent every 100 ms was half the process's CPU).
 */
public final class RunRegistry implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(RunRegistry.class);

  /** How the registry builds a run's workload: {@link WorkloadFactory#create}, or a test's. */
  @FunctionalInterface
  public interface Workloads {
    Workload create(WorkloadSpec spec, RootedPaths paths, int stepNodes, CallDeadline readyBy);
  }

  private final AgentConfig config;
  private final Workloads workloads;

  /** Each root the agent serves ({@code --root}), in the order given: the first is the default. */
  private final Map<Path, AgentRoot> roots = new LinkedHashMap<>();

  /** The root of each run prepared here whose directory and manifest are not yet removed. */
  private final Map<String, AgentRoot> rootOfRun = new ConcurrentHashMap<>();

  private final ResourceGuards guards = ResourceGuards.fromEnvironment();
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final AtomicLong prepared = new AtomicLong();

  /**
   * Runs cleaned by a Cleanup call whose directory (and manifest) wait for a Cleanup with
   * run_dir_only, with their owners: run id -> the caller who prepared the run.
   */
  private final Map<String, String> keptRunDirs = new ConcurrentHashMap<>();

  /** Told of every run that reaches a final state (the metrics endpoint's totals). */
  private volatile Consumer<Run> onFinished = r -> {};

  private volatile Rehearsal rehearsal = Rehearsal.none();
  private volatile boolean closed;

  /** A Prepare under way (its run is not in {@link #runs} yet), or null. */
  private Claim preparing;

  /**
   * Moves armed runs to RUNNING at their instant, samples running runs, checks leases when due,
   * drops kept results; a cancelled task leaves its queue at once.
   */
  private final ScheduledThreadPoolExecutor timer = timer();

  /** Each kept result's end on the {@link #timer}: runs cleaned but kept for collect. */
  private final Map<Run, ScheduledFuture<?>> keptResults = new ConcurrentHashMap<>();

  /** Cleans the runs whose lease ran out (a cleanup waits for its run and removes files). */
  private final ExecutorService leaseCleanups =
      Executors.newCachedThreadPool(DaemonThreads.named("lease-cleanup"));

  /** Run {@code runId} being prepared for {@code owner}, who called from {@code peer}. */
  private record Claim(String runId, String owner, String peer, long sinceMillis) {}

  public RunRegistry(AgentConfig config) {
    this(config, WorkloadFactory::create);
  }

  public RunRegistry(AgentConfig config, Workloads workloads) {
    this.config = config;
    this.workloads = workloads;
    for (Path root : config.roots()) {
      roots.put(root, new AgentRoot(root, config.nodeName()));
    }
  }

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("run-timer"));
    t.setRemoveOnCancelPolicy(true);
    return t;
  }

  public AgentConfig config() {
    return config;
  }

  /** Prepare calls this registry has taken (each step's, whether or not it was refused). */
  public long stepsPrepared() {
    return prepared.get();
  }

  /** The start-up rehearsal a Prepare waits for, so that it never runs beside a measured step. */
  public void rehearsedBy(Rehearsal r) {
    rehearsal = r;
  }

  /**
   * The run's lease ran out ({@code why}): it is aborted and its files removed, its result kept.
   */
  private void leaseRanOut(Run run, String why) {
    if (closed || runs.get(run.runId()) != run) {
      return;
    }
    LOG.warn(
        "run {}: {}; aborting and removing its files (the result is kept for collect)",
        run.runId(),
        why);
    try {
      run.cleanup(why, false, leaseCleanups);
    } catch (RejectedExecutionException closing) {
      // the registry is closing: close() cleans every run
    }
  }

  /** Tasks pending on the registry's timer (samples, instants, lease checks, kept results). */
  int timerTasks() {
    return timer.getQueue().size();
  }

  /**
   * Prepares a new run for {@code caller}, who owns it from then on, or returns the existing one if
   * its owner asks again with the same run id and workload. Refused while another run holds
   * anything on this agent (one run at a time), and to anyone but the owner of a run id that is
   * taken.
   *
   * @param peer where the call comes from (remote address), named to whoever is refused later
   * @param caller who calls ({@link CallerIdentity})
   * @param deadline when the call must be answered: the workload's worker processes must be ready
   *     by then
   */
  public Run prepare(PrepareRequest request, String peer, String caller, CallDeadline deadline) {
    rehearsal.awaitDone();
    prepared.incrementAndGet();
    if (request.getRunId().isBlank()) {
      throw new RunException.Invalid("run_id is empty");
    }
    RunManifests.checkRunId(request.getRunId());
    long lease = Leases.effective(request.getLeaseMillis());
    AgentRoot root = roots.get(config.root(request.getRoot()));
    synchronized (this) {
      checkOwner(request.getRunId(), caller, "prepare");
      Run existing = runs.get(request.getRunId());
      if (existing != null) {
        if (!existing.prepared().spec().equals(request.getWorkload())
            || rootOfRun.getOrDefault(request.getRunId(), root) != root) {
          throw new RunException.Conflict(
              "run "
                  + request.getRunId()
                  + " is already prepared on node "
                  + config.nodeName()
                  + " with another workload or root");
        }
        existing.touch();
        return existing;
      }
      refuseIfBusy(request.getRunId());
      preparing = new Claim(request.getRunId(), caller, peer, System.currentTimeMillis());
    }
    // a coordinator that died between a step's Cleanup and its run_dir_only left these; every node
    // of that
    // step had cleaned (its Cleanup phase had ended), so nothing of another node is in them
    for (String kept : List.copyOf(keptRunDirs.keySet())) {
      removeRunDir(kept);
    }
    try {
      Workload workload = create(request, root, deadline);
      ResourceSampler sampler =
          request.getTelemetryOff()
              ? null
              : new ResourceSampler(Path.of("/"), root.blockDevice(), () -> pids(workload));
      Run run =
          new Run(
              new Run.Prepared(
                  request.getRunId(),
                  config.nodeName(),
                  request.getWorkload(),
                  workload,
                  lease,
                  caller,
                  peer,
                  System.currentTimeMillis(),
                  sampler),
              timer,
              this::cleanedUp);
      runs.put(run.runId(), run);
      run.watchLease(why -> leaseRanOut(run, why));
      if (closed) {
        // closed while this Prepare started its workers: they must not outlive the registry
        discard(run.runId());
        throw new RunException.Stopping("node " + config.nodeName() + " is stopping");
      }
      run.whenFinished(() -> onFinished.accept(run));
      LOG.info(
          "run {} prepared for {}: {}, lease {} ms",
          run.runId(),
          peer,
          request.getWorkload().getKindCase(),
          lease);
      return run;
    } finally {
      synchronized (this) {
        preparing = null;
      }
    }
  }

  private Workload create(PrepareRequest request, AgentRoot root, CallDeadline deadline) {
    if (request.getWatchOnly()) {
      // nothing is created under the root: no manifest, no run directory, no guard to pass
      return new WatchOnly();
    }
    Workload workload;
    RootedPaths runPaths = root.paths().forRun(request.getRunId());
    try {
      workload =
          workloads.create(
              request.getWorkload(), runPaths, Math.max(1, request.getStepNodeCount()), deadline);
    } catch (InvalidWorkloadException e) {
      throw new RunException.Invalid(e.getMessage());
    }
    try {
      guards.check(request.getWorkload(), root.path());
    } catch (ResourceLimitException e) {
      throw new RunException.NoResources(e.getMessage());
    }
    // what the run will create is on disk before it creates it: an agent killed mid-run removes it
    // when it starts again
    rootOfRun.put(request.getRunId(), root);
    try {
      root.manifests().write(request.getRunId(), List.of(runPaths.runDir()));
    } catch (PosixException | UncheckedIOException e) {
      throw new RunException.PrepareFailed(
          "prepare failed: cannot write the run's manifest under "
              + root.path().resolve(root.manifests().dir())
              + ": "
              + e.getMessage());
    }
    try {
      root.runDirs().create(runPaths.runDir());
      workload.prepare();
    } catch (ResourceLimitException e) {
      cleanupFailedPrepare(workload, request.getRunId());
      throw new RunException.NoResources(e.getMessage());
    } catch (PosixException e) {
      cleanupFailedPrepare(workload, request.getRunId());
      throw new RunException.PrepareFailed(
          "prepare failed: " + WorkloadErrors.of(e, root.path(), "").getMessage());
    } catch (RuntimeException e) {
      cleanupFailedPrepare(workload, request.getRunId());
      throw e;
    }
    return workload;
  }

  private void cleanupFailedPrepare(Workload workload, String runId) {
    workload.cleanup();
    cleanedUp(runId);
  }

  /**
   * A run's files are removed: its directory and manifest follow ({@link #cleanedUp(String)}), and
   * its result is kept for {@link Leases#RESULT_RETENTION_MILLIS} ms unless a Cleanup call forgets
   * the run now ({@link #cleanup(Run)}).
   */
  private void cleanedUp(Run run) {
    cleanedUp(run.runId());
    if (runs.get(run.runId()) != run) {
      return;
    }
    try {
      keptResults.put(
          run,
          timer.schedule(
              () -> dropResult(run), Leases.RESULT_RETENTION_MILLIS, TimeUnit.MILLISECONDS));
    } catch (RejectedExecutionException closing) {
      // the registry is closing: nothing is kept
    }
  }

  private void dropResult(Run run) {
    keptResults.remove(run);
    if (runs.remove(run.runId(), run)) {
      LOG.info(
          "run {}: result dropped {} ms after its cleanup",
          run.runId(),
          Leases.RESULT_RETENTION_MILLIS);
    }
  }

  /**
   * After a run's workload removed its files: its directory (when empty) and then its manifest,
   * unless a Cleanup call keeps them for its run_dir_only ({@link #removeRunDir}).
   */
  private void cleanedUp(String runId) {
    if (!keptRunDirs.containsKey(runId)) {
      AgentRoot root = rootOfRun.remove(runId);
      if (root != null) {
        root.removeRun(runId, false);
      }
    }
  }

  /**
   * The run's directory, if empty, and its manifest, for a run its owner cleaned with a Cleanup
   * call ({@link #cleanup(String, String)}); an unknown run id, or one cleaned otherwise, has
   * nothing left.
   */
  public void removeRunDir(String runId, String caller) {
    String owner = keptRunDirs.get(runId);
    if (owner == null) {
      checkOwner(runId, caller, "cleanup");
      return;
    }
    Run.checkOwner(runId, config.nodeName(), owner, caller, "cleanup");
    if (keptRunDirs.remove(runId, owner)) {
      removeKeptRunDir(runId);
    }
  }

  private void removeRunDir(String runId) {
    if (keptRunDirs.remove(runId) != null) {
      removeKeptRunDir(runId);
    }
  }

  private void removeKeptRunDir(String runId) {
    AgentRoot root = rootOfRun.remove(runId);
    if (root != null) {
      root.removeRun(runId, true);
    }
  }

  /**
   * Refuses {@code call} of {@code runId} unless {@code caller} owns it: whoever prepared the run,
   * is preparing it, or cleaned it and has its directory still to remove. A run id none of these
   * holds is anyone's.
   */
  private synchronized void checkOwner(String runId, String caller, String call) {
    Run run = runs.get(runId);
    if (run != null) {
      run.checkOwner(caller, call);
      return;
    }
    String owner =
        preparing != null && preparing.runId().equals(runId)
            ? preparing.owner()
            : keptRunDirs.get(runId);
    if (owner != null) {
      Run.checkOwner(runId, config.nodeName(), owner, caller, call);
    }
  }

  /** "run ID (WHAT WHEN, owner O)": the run a refused Prepare names. */
  private static String busyText(String runId, String what, long whenMillis, String owner) {
    return String.format(
        "run %s (%s %s, owner %s)",
        runId, what, Instant.ofEpochMilli(whenMillis), CallerIdentity.shown(owner));
  }

  private void refuseIfBusy(String runId) {
    String busyWith = null;
    if (preparing != null) {
      busyWith =
          busyText(
              preparing.runId(),
              "being prepared for " + preparing.peer() + " since",
              preparing.sinceMillis(),
              preparing.owner());
    } else {
      for (Run r : runs.values()) {
        if (!r.cleanupStarted()) {
          busyWith =
              busyText(
                  r.runId(),
                  r.state().name().replace("RUN_STATE_", "")
                      + ", prepared by "
                      + r.prepared().by()
                      + " at",
                  r.prepared().atMillis(),
                  r.prepared().owner());
          break;
        }
      }
    }
    if (busyWith != null) {
      throw new RunException.Busy(
          "node "
              + config.nodeName()
              + " is busy with "
              + busyWith
              + "; one run at a time per agent: wait for it to end, or abort it, then prepare "
              + runId
              + " again");
    }
  }

  /** Tells {@code action} of every run that reaches a final state (the metrics endpoint). */
  public void onFinished(Consumer<Run> action) {
    onFinished = action;
  }

  /** The default root's block device, looked up once: it does not change while the agent runs. */
  public String blockDevice() {
    return roots.get(config.root()).blockDevice();
  }

  /** The agent itself and the run's worker processes: the workload's own CPU. */
  private static List<Long> pids(Workload workload) {
    List<Long> pids = new ArrayList<>();
    pids.add(ProcessHandle.current().pid());
    pids.addAll(workload.workerPids());
    return pids;
  }

  /**
   * Every run this agent holds (prepared, running, or ended and kept for collect), oldest first.
   */
  public List<Run> list() {
    return runs.values().stream()
        .sorted(Comparator.comparingLong(r -> r.prepared().atMillis()))
        .toList();
  }

  /**
   * The run, for {@code call} by {@code caller}: refused unless the caller owns it; the call renews
   * its lease.
   */
  public Run get(String runId, String caller, String call) {
    Run run = runs.get(runId);
    if (run == null) {
      checkOwner(runId, caller, call); // being prepared for another caller
      throw new RunException.NotFound("no run " + runId + " on node " + config.nodeName());
    }
    run.checkOwner(caller, call);
    run.touch();
    return run;
  }

  /**
   * A client connection closed: the runs it prepared end soon unless their coordinator calls again.
   */
  public void peerGone(String peer) {
    if (peer.equals("unknown peer")) {
      return;
    }
    long now = System.currentTimeMillis();
    for (Run r : runs.values()) {
      if (r.prepared().by().equals(peer) && !r.cleanupStarted()) {
        LOG.info(
            "run {}: the connection it was prepared over ({}) closed; ending it in {} ms unless its"
                + " coordinator calls",
            r.runId(),
            peer,
            Leases.PEER_GONE_GRACE_MILLIS);
        r.peerGone(now);
      }
    }
  }

  /**
   * Renews the leases of the listed runs that {@code caller} owns; returns those already ended
   * (cleanup begun), which it cannot renew. Another caller's run is left alone and not named: a
   * coordinator keeps only its own runs alive.
   */
  public List<Run> keepAlive(List<String> runIds, String caller) {
    List<Run> ended = new ArrayList<>();
    for (String id : runIds) {
      Run run = runs.get(id);
      if (run != null && run.prepared().owner().equals(caller)) {
        if (run.cleanupStarted()) {
          ended.add(run);
        } else {
          run.touch();
        }
      }
    }
    return ended;
  }

  /**
   * Cleans up and forgets a run for its owner (a Cleanup call); an unknown run id is already clean.
   * The run's directory and manifest stay for {@link #removeRunDir(String, String)}.
   */
  public CleanupReport cleanup(String runId, String caller) {
    Run run = runs.get(runId);
    if (run == null) {
      checkOwner(runId, caller, "cleanup"); // being prepared for another caller, or cleaned by one
      return new CleanupReport(0, List.of());
    }
    run.checkOwner(caller, "cleanup");
    keptRunDirs.put(runId, run.prepared().owner());
    return cleanup(run);
  }

  /** Cleans up and forgets a run, its directory and manifest with it. */
  CleanupReport discard(String runId) {
    Run run = runs.get(runId);
    return run == null ? new CleanupReport(0, List.of()) : cleanup(run);
  }

  private CleanupReport cleanup(Run run) {
    String runId = run.runId();
    CleanupReport report = run.cleanup("cleanup");
    runs.remove(runId, run);
    ScheduledFuture<?> kept = keptResults.remove(run);
    if (kept != null) {
      kept.cancel(false);
    }
    LOG.info(
        "run {} cleaned up: {} files removed, {} left",
        runId,
        report.filesRemoved(),
        report.leftovers().size());
    return report;
  }

  @Override
  public void close() {
    closed = true;
    rehearsal.cancel();
    timer.shutdownNow();
    leaseCleanups.shutdown();
    for (String id : runs.keySet()) {
      discard(id);
    }
    for (String id : List.copyOf(keptRunDirs.keySet())) {
      removeRunDir(id);
    }
  }
}

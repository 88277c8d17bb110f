package lockstep.agent.run;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import lockstep.agent.env.NodeEnvironment;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.process.ResourceLimitException;
import lockstep.agent.telemetry.ResourceSampler;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.ResourceGuards;
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
 */
public final class RunRegistry implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(RunRegistry.class);

  /** How the registry builds a run's workload: {@link WorkloadFactory#create}, or a test's. */
  @FunctionalInterface
  public interface Workloads {
    Workload create(WorkloadSpec spec, RootedPaths paths, int stepNodes);
  }

  private final AgentConfig config;
  private final Workloads workloads;
  private final RootedPaths paths;
  private final RunManifests manifests;
  private final RunDirs runDirs;
  private final ResourceGuards guards = ResourceGuards.fromEnvironment();
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final AtomicLong prepared = new AtomicLong();

  /**
   * Runs cleaned by a Cleanup call whose directory (and manifest) wait for a Cleanup with
   * run_dir_only.
   */
  private final Set<String> keptRunDirs = ConcurrentHashMap.newKeySet();

  private String blockDevice;

  /** Told of every run that reaches a final state (the metrics endpoint's totals). */
  private volatile Consumer<Run> onFinished = r -> {};

  private volatile Rehearsal rehearsal = Rehearsal.none();
  private volatile boolean closed;

  /** A Prepare under way (its run is not in {@link #runs} yet), or null. */
  private Claim preparing;

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("run-sampler"));

  private record Claim(String runId, String peer, long sinceMillis) {}

  public RunRegistry(AgentConfig config) {
    this(config, WorkloadFactory::create);
  }

  public RunRegistry(AgentConfig config, Workloads workloads) {
    this.config = config;
    this.workloads = workloads;
    this.paths = new RootedPaths(config.root(), config.nodeName());
    this.manifests = new RunManifests(paths);
    this.runDirs = new RunDirs(paths);
    List<String> left = manifests.removeLeftovers();
    if (!left.isEmpty()) {
      LOG.warn(
          "removed {} path(s) left under {} by runs of a previous instance of this agent: {}",
          left.size(),
          paths.root(),
          left);
    }
    timer.scheduleAtFixedRate(
        this::tick, Run.SAMPLE_MILLIS, Run.SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
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

  private void tick() {
    long now = System.currentTimeMillis();
    for (Run run : runs.values()) {
      try {
        run.sample();
        String expiry = run.leaseExpiry(now);
        if (expiry != null) {
          LOG.warn(
              "run {}: {}; aborting and removing its files (the result is kept for collect)",
              run.runId(),
              expiry);
          Thread t = new Thread(() -> run.cleanup(expiry), "lease-cleanup-" + run.runId());
          t.setDaemon(true);
          t.start();
        } else if (run.cleanedAtMillis() > 0
            && now - run.cleanedAtMillis() > Leases.RESULT_RETENTION_MILLIS) {
          runs.remove(run.runId());
          LOG.info(
              "run {}: result dropped {} ms after its cleanup",
              run.runId(),
              Leases.RESULT_RETENTION_MILLIS);
        }
      } catch (RuntimeException e) {
        LOG.error("sampling run {} failed", run.runId(), e);
      }
    }
  }

  /**
   * Prepares a new run, or returns the existing one if the same run id and workload come again.
   * Refused while another run holds anything on this agent (one run at a time).
   *
   * @param peer who asks (remote address of the call), named to whoever is refused later
   */
  public Run prepare(PrepareRequest request, String peer) {
    rehearsal.awaitDone();
    prepared.incrementAndGet();
    if (request.getRunId().isBlank()) {
      throw new RunException.Invalid("run_id is empty");
    }
    RunManifests.checkRunId(request.getRunId());
    long lease = Leases.effective(request.getLeaseMillis());
    synchronized (this) {
      Run existing = runs.get(request.getRunId());
      if (existing != null) {
        if (!existing.prepared().spec().equals(request.getWorkload())) {
          throw new RunException.Conflict(
              "run "
                  + request.getRunId()
                  + " is already prepared on node "
                  + config.nodeName()
                  + " with another workload");
        }
        existing.touch();
        return existing;
      }
      refuseIfBusy(request.getRunId());
      preparing = new Claim(request.getRunId(), peer, System.currentTimeMillis());
    }
    // a coordinator that died between a step's Cleanup and its run_dir_only left these; every node
    // of that
    // step had cleaned (its Cleanup phase had ended), so nothing of another node is in them
    for (String kept : List.copyOf(keptRunDirs)) {
      removeRunDir(kept);
    }
    try {
      Workload workload = create(request);
      ResourceSampler sampler =
          request.getTelemetryOff()
              ? null
              : new ResourceSampler(Path.of("/"), blockDevice(), () -> pids(workload));
      Run run =
          new Run(
              new Run.Prepared(
                  request.getRunId(),
                  request.getWorkload(),
                  workload,
                  lease,
                  peer,
                  System.currentTimeMillis(),
                  sampler),
              () -> cleanedUp(request.getRunId()));
      runs.put(run.runId(), run);
      if (closed) {
        // closed while this Prepare started its workers: they must not outlive the registry
        cleanup(run.runId(), false);
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

  private Workload create(PrepareRequest request) {
    Workload workload;
    RootedPaths runPaths = paths.forRun(request.getRunId());
    try {
      workload =
          workloads.create(
              request.getWorkload(), runPaths, Math.max(1, request.getStepNodeCount()));
    } catch (InvalidWorkloadException e) {
      throw new RunException.Invalid(e.getMessage());
    }
    try {
      guards.check(request.getWorkload(), paths.root());
    } catch (ResourceLimitException e) {
      throw new RunException.NoResources(e.getMessage());
    }
    // what the run will create is on disk before it creates it: an agent killed mid-run removes it
    // when it starts again
    try {
      manifests.write(request.getRunId(), List.of(runPaths.runDir()));
    } catch (PosixException | UncheckedIOException e) {
      throw new RunException.PrepareFailed(
          "prepare failed: cannot write the run's manifest under "
              + paths.root().resolve(manifests.dir())
              + ": "
              + e.getMessage());
    }
    try {
      runDirs.create(runPaths.runDir());
      workload.prepare();
    } catch (ResourceLimitException e) {
      cleanupFailedPrepare(workload, request.getRunId());
      throw new RunException.NoResources(e.getMessage());
    } catch (PosixException e) {
      cleanupFailedPrepare(workload, request.getRunId());
      throw new RunException.PrepareFailed(
          "prepare failed: " + WorkloadErrors.of(e, paths.root(), "").getMessage());
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
   * After a run's workload removed its files: its directory (when empty) and then its manifest,
   * unless a Cleanup call keeps them for its run_dir_only ({@link #removeRunDir}).
   */
  private void cleanedUp(String runId) {
    if (!keptRunDirs.contains(runId)) {
      runDirs.removeIfEmpty(paths.forRun(runId).runDir());
      manifests.remove(runId);
    }
  }

  /**
   * The run's directory, if empty, and its manifest, for a run a Cleanup call cleaned; returns
   * whether the run was one (an unknown run id, or one cleaned otherwise, has nothing left).
   */
  public boolean removeRunDir(String runId) {
    if (!keptRunDirs.remove(runId)) {
      return false;
    }
    runDirs.removeIfEmpty(paths.forRun(runId).runDir(), true);
    manifests.remove(runId);
    return true;
  }

  /** Who owns a run, as others may see it (set by the service, which keeps the owners). */
  private volatile Function<String, String> owners = id -> "";

  public void showOwners(Function<String, String> shownOwnerOf) {
    this.owners = shownOwnerOf;
  }

  private String owner(String runId) {
    String o = owners.apply(runId);
    return o.isEmpty() ? "" : ", owner " + o;
  }

  /** "run ID (WHAT WHEN, owner O)": the run a refused Prepare names. */
  private String busyText(String runId, String what, long whenMillis) {
    return String.format(
        "run %s (%s %s%s)", runId, what, Instant.ofEpochMilli(whenMillis), owner(runId));
  }

  private void refuseIfBusy(String runId) {
    String busyWith = null;
    if (preparing != null) {
      busyWith =
          busyText(
              preparing.runId(),
              "being prepared for " + preparing.peer() + " since",
              preparing.sinceMillis());
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
                  r.prepared().atMillis());
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

  /** The root's block device, looked up once: it does not change while the agent runs. */
  public synchronized String blockDevice() {
    if (blockDevice == null) {
      blockDevice = NodeEnvironment.blockDeviceOf(config.root());
    }
    return blockDevice;
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

  public boolean isKnown(String runId) {
    return runs.containsKey(runId);
  }

  public Run get(String runId) {
    Run run = runs.get(runId);
    if (run == null) {
      throw new RunException.NotFound("no run " + runId + " on node " + config.nodeName());
    }
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
   * Renews the leases of the listed runs; returns those already ended (cleanup begun), which it
   * cannot renew.
   */
  public List<Run> keepAlive(List<String> runIds) {
    List<Run> ended = new ArrayList<>();
    for (String id : runIds) {
      Run run = runs.get(id);
      if (run != null) {
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
   * Cleans up and forgets a run; an unknown run id is already clean. With {@code keepRunDir} (a
   * Cleanup call) the run's directory and manifest stay for {@link #removeRunDir}.
   */
  public CleanupReport cleanup(String runId, boolean keepRunDir) {
    Run run = runs.get(runId);
    if (run == null) {
      return new CleanupReport(0, List.of());
    }
    if (keepRunDir) {
      keptRunDirs.add(runId);
    }
    CleanupReport report = run.cleanup("cleanup");
    runs.remove(runId);
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
    for (String id : runs.keySet()) {
      cleanup(id, false);
    }
    for (String id : List.copyOf(keptRunDirs)) {
      removeRunDir(id);
    }
  }
}

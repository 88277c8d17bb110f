package lockstep.agent;

import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.agent.fs.InvalidWorkloadException;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.Errors;
import lockstep.agent.workload.Workload;
import lockstep.agent.workload.WorkloadFactory;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The runs this agent knows, by run id. Samples each running run's progress every
 * {@value #SAMPLE_MILLIS} ms and ends runs whose lease ran out.
 */
final class RunRegistry implements AutoCloseable {
    static final long SAMPLE_MILLIS = 100;
    private static final Logger LOG = LogManager.getLogger(RunRegistry.class);

    private final AgentConfig config;
    private final RootedPaths paths;
    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "run-sampler");
        t.setDaemon(true);
        return t;
    });

    RunRegistry(AgentConfig config) {
        this.config = config;
        this.paths = new RootedPaths(config.root(), config.nodeName());
        timer.scheduleAtFixedRate(this::tick, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    }

    AgentConfig config() {
        return config;
    }

    private void tick() {
        long now = System.currentTimeMillis();
        for (Run run : runs.values()) {
            try {
                run.sample();
                if (run.leaseExpired(now)) {
                    LOG.warn("run {}: no call from the coordinator within its lease; aborting and cleaning up", run.runId());
                    runs.remove(run.runId());
                    Thread t = new Thread(run::cleanup, "lease-cleanup-" + run.runId());
                    t.setDaemon(true);
                    t.start();
                }
            } catch (RuntimeException e) {
                LOG.error("sampling run {} failed", run.runId(), e);
            }
        }
    }

    /** Prepares a new run, or returns the existing one if the same run id and workload come again. */
    Run prepare(PrepareRequest request) {
        if (request.getRunId().isBlank()) {
            throw Status.INVALID_ARGUMENT.withDescription("run_id is empty").asRuntimeException();
        }
        synchronized (this) {
            Run existing = runs.get(request.getRunId());
            if (existing != null) {
                if (!existing.spec().equals(request.getWorkload())) {
                    throw Status.ALREADY_EXISTS.withDescription("run " + request.getRunId()
                            + " is already prepared on node " + config.nodeName() + " with another workload").asRuntimeException();
                }
                existing.touch();
                return existing;
            }
            Workload workload;
            try {
                workload = WorkloadFactory.create(request.getWorkload(), paths, Math.max(1, request.getStepNodeCount()));
            } catch (InvalidWorkloadException e) {
                throw Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
            }
            try {
                workload.prepare();
            } catch (PosixException e) {
                workload.cleanup();
                throw Status.FAILED_PRECONDITION.withDescription("prepare failed: " + Errors.of(e, paths.root(), "").getMessage()).asRuntimeException();
            } catch (RuntimeException e) {
                workload.cleanup();
                throw e;
            }
            Run run = new Run(request.getRunId(), request.getWorkload(), workload, request.getLeaseMillis());
            runs.put(run.runId(), run);
            LOG.info("run {} prepared: {}", run.runId(), request.getWorkload().getKindCase());
            return run;
        }
    }

    boolean isKnown(String runId) {
        return runs.containsKey(runId);
    }

    Run get(String runId) {
        Run run = runs.get(runId);
        if (run == null) {
            throw Status.NOT_FOUND.withDescription("no run " + runId + " on node " + config.nodeName()).asRuntimeException();
        }
        run.touch();
        return run;
    }

    /** Cleans up and forgets a run; an unknown run id is already clean. */
    CleanupReport cleanup(String runId) {
        Run run = runs.remove(runId);
        if (run == null) {
            return new CleanupReport(0, java.util.List.of());
        }
        CleanupReport report = run.cleanup();
        LOG.info("run {} cleaned up: {} files removed, {} left", runId, report.filesRemoved(), report.leftovers().size());
        return report;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        for (String id : runs.keySet()) {
            cleanup(id);
        }
    }
}

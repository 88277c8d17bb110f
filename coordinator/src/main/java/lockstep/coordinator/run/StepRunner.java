package lockstep.coordinator.run;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WatchProgressResponse;
import lockstep.agent.workload.LatencyHistograms;
import lockstep.agent.WallClock;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.Scenario;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Runs one step on a set of nodes through explicit phases, each a barrier over every node:
 * prepare, clock sync, arm (start at one instant), run (watch progress), collect, cleanup.
 * Cleanup always runs; a node that fails makes the others abort.
 */
public final class StepRunner {
    static final int PROGRESS_INTERVAL_MILLIS = 250;
    static final long LEASE_MILLIS = 60_000;
    private static final long SHORT_PHASE_MILLIS = 30_000;
    private static final long PREPARE_PHASE_MILLIS = 200_000;
    private static final long CLEANUP_PHASE_MILLIS = 320_000;
    private static final Logger LOG = LogManager.getLogger(StepRunner.class);

    private final Scenario scenario;
    private final AgentEnsemble ensemble;
    private final RunListener listener;

    public StepRunner(Scenario scenario, AgentEnsemble ensemble, RunListener listener) {
        this.scenario = scenario;
        this.ensemble = ensemble;
        this.listener = listener;
    }

    public StepRecord run(String runId, String stepId, String kind, List<StepNode> nodes) {
        String agentRunId = runId + "." + stepId;
        Map<Agent, String> names = new LinkedHashMap<>();
        nodes.forEach(n -> names.put(n.agent(), n.node()));
        List<Agent> agents = new ArrayList<>(names.keySet());
        List<String> errors = new ArrayList<>();
        Map<Agent, GetResultResponse> results = Map.of();
        Map<Agent, ClockOffset> clocks = Map.of();
        Map<Agent, CleanupResponse> cleanups = Map.of();
        long startAt = 0;
        try {
            FanOut<?> prepared = phase("prepare", agents, a -> a.prepare(PrepareRequest.newBuilder()
                    .setRunId(agentRunId).setWorkload(scenario.workload()).setLeaseMillis(LEASE_MILLIS)
                    .setStepNodeCount(agents.size()).setTelemetryOff(!scenario.telemetry()).build()),
                    PREPARE_PHASE_MILLIS, names, errors);
            if (!prepared.ok()) {
                return failed(stepId, kind, names, errors);
            }
            FanOut<ClockOffset> clock = phase("clock sync", agents, ClockOffset::measure,
                    SHORT_PHASE_MILLIS, names, errors);
            if (!clock.ok()) {
                abortAll(agents, agentRunId, "clock sync failed");
                return failed(stepId, kind, names, errors);
            }
            clocks = clock.values();
            long maxRtt = clocks.values().stream().mapToLong(ClockOffset::roundTripNanos).max().orElse(0);
            long lead = Math.max(scenario.startLead().toNanos(), 20 * maxRtt);
            startAt = WallClock.nowNanos() + lead;
            final long instant = startAt;
            final Map<Agent, ClockOffset> offsets = clocks;
            FanOut<?> armed = phase("start", agents, a -> a.start(agentRunId, offsets.get(a).toAgentClock(instant)),
                    SHORT_PHASE_MILLIS, names, errors);
            if (!armed.ok()) {
                abortAll(agents, agentRunId, "another node could not be armed");
                return failed(stepId, kind, names, errors);
            }
            listener.stepArmed(stepId, List.copyOf(names.values()), lead / 1_000_000);
            watch(agentRunId, stepId, agents, names, errors, lead);
            FanOut<GetResultResponse> collected = phase("collect", agents, a -> a.getResult(agentRunId),
                    SHORT_PHASE_MILLIS, names, errors);
            results = collected.values();
        } finally {
            FanOut<CleanupResponse> cleaned = phase("cleanup", agents, a -> a.cleanup(agentRunId),
                    CLEANUP_PHASE_MILLIS, names, errors);
            cleanups = cleaned.values();
            cleanups.forEach((a, c) -> c.getLeftoversList().forEach(l ->
                    errors.add("node " + names.get(a) + ": cleanup left " + l)));
        }
        return assemble(stepId, kind, names, results, clocks, cleanups, startAt, errors);
    }

    private void watch(String agentRunId, String stepId, List<Agent> agents, Map<Agent, String> names,
                       List<String> errors, long leadNanos) {
        AtomicBoolean aborted = new AtomicBoolean();
        long timeoutMillis = scenario.timeout().toMillis() + leadNanos / 1_000_000 + 5_000;
        FanOut<RunState> watched = ensemble.call("run", agents, a -> {
            RunState last = RunState.RUN_STATE_UNSPECIFIED;
            Iterator<WatchProgressResponse> it = a.watchProgress(agentRunId, PROGRESS_INTERVAL_MILLIS, timeoutMillis);
            while (it.hasNext()) {
                WatchProgressResponse p = it.next();
                last = p.getState();
                listener.progress(stepId, names.get(a), p.getSample(), last);
            }
            if (last == RunState.RUN_STATE_FAILED && aborted.compareAndSet(false, true)) {
                for (Agent other : agents) {
                    if (other != a) {
                        safely(() -> other.abort(agentRunId, "node " + names.get(a) + " failed"));
                    }
                }
            }
            return last;
        }, timeoutMillis + 5_000);
        if (!watched.ok()) {
            watched.errors().forEach((a, e) -> errors.add(nodeMessage(names.get(a), "run", e)));
            abortAll(agents, agentRunId, "the run did not finish on every node within " + scenario.timeout());
        }
    }

    private <T> FanOut<T> phase(String phase, List<Agent> agents, Function<Agent, T> call, long timeoutMillis,
                                Map<Agent, String> names, List<String> errors) {
        FanOut<T> out = ensemble.call(phase, agents, call, timeoutMillis);
        out.errors().forEach((a, e) -> {
            LOG.warn("{} failed on {}: {}", phase, a.address(), e.getMessage());
            errors.add(nodeMessage(names.get(a), phase, e));
        });
        return out;
    }

    private static String nodeMessage(String node, String phase, RuntimeException e) {
        String detail = e instanceof lockstep.coordinator.agent.AgentCallException ace ? ace.detail() : e.getMessage();
        return "node " + node + ": " + phase + ": " + detail;
    }

    private void abortAll(List<Agent> agents, String agentRunId, String reason) {
        ensemble.call("abort", agents, a -> {
            safely(() -> a.abort(agentRunId, reason));
            return true;
        }, SHORT_PHASE_MILLIS);
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.debug("ignored during abort: {}", e.getMessage());
        }
    }

    private StepRecord failed(String stepId, String kind, Map<Agent, String> names, List<String> errors) {
        return new StepRecord(stepId, kind, List.copyOf(names.values()), 0, "failed", List.of(), null, List.copyOf(errors));
    }

    private StepRecord assemble(String stepId, String kind, Map<Agent, String> names, Map<Agent, GetResultResponse> results,
                                Map<Agent, ClockOffset> clocks, Map<Agent, CleanupResponse> cleanups, long startAt,
                                List<String> errors) {
        boolean bytesUnit = scenario.bytesUnit();
        List<NodeResult> nodes = new ArrayList<>();
        Histogram merged = LatencyHistograms.create();
        for (var e : names.entrySet()) {
            GetResultResponse r = results.get(e.getKey());
            ClockOffset clock = clocks.get(e.getKey());
            if (r == null || clock == null) {
                continue;
            }
            CleanupResponse c = cleanups.get(e.getKey());
            NodeResult nr = NodeResults.of(e.getValue(), r.getResult(), clock, startAt, bytesUnit,
                    c == null ? 0 : c.getFilesRemoved());
            nodes.add(nr);
            merged.add(LatencyHistograms.decode(r.getResult().getLatencyHistogram()));
            if (nr.error() != null && !nr.ok()) {
                errors.add("node " + nr.node() + ": " + nr.status() + ": " + nr.error().message());
            }
        }
        nodes = NodeResults.withShares(nodes);
        boolean ok = errors.isEmpty() && nodes.size() == names.size() && nodes.stream().allMatch(NodeResult::ok);
        return new StepRecord(stepId, kind, List.copyOf(names.values()), startAt, ok ? "ok" : "failed",
                List.copyOf(nodes), aggregate(nodes, merged, bytesUnit), List.copyOf(errors));
    }

    static Aggregate aggregate(List<NodeResult> nodes, Histogram merged, boolean bytesUnit) {
        List<NodeResult> started = nodes.stream().filter(n -> n.firstOpUnixNanos() > 0).toList();
        if (started.isEmpty()) {
            return null;
        }
        long first = started.stream().mapToLong(NodeResult::firstOpUnixNanos).min().orElse(0);
        long end = started.stream().mapToLong(NodeResult::endUnixNanos).max().orElse(0);
        long ops = started.stream().mapToLong(NodeResult::ops).sum();
        long bytes = started.stream().mapToLong(NodeResult::bytes).sum();
        double seconds = (end - first) / 1e9;
        double sum = started.stream().mapToDouble(NodeResult::throughput).sum();
        double skew = started.stream().mapToDouble(n -> Math.abs(n.startSkewMillis())).max().orElse(0);
        return new Aggregate(seconds, ops, bytes, NodeResults.throughput(bytesUnit, ops, bytes, seconds), sum, skew,
                Latency.of(merged), Base64.getEncoder().encodeToString(LatencyHistograms.encode(merged).toByteArray()));
    }
}

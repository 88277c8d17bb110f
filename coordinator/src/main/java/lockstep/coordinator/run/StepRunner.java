package lockstep.coordinator.run;

import io.grpc.Status;
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
import lockstep.agent.v1.PrepareResponse;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WatchProgressResponse;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.Scenario;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Runs one step on a set of nodes through explicit phases, each a barrier over every node: prepare,
 * clock sync, arm (start at one instant), run (watch progress), collect, cleanup. Cleanup always
 * runs; a node that fails makes the others abort.
 */
public final class StepRunner {
  static final int PROGRESS_INTERVAL_MILLIS = 250;
  private static final long SHORT_PHASE_MILLIS = 30_000;
  private static final long PREPARE_PHASE_MILLIS = 200_000;
  private static final long CLEANUP_PHASE_MILLIS = 320_000;
  private static final Logger LOG = LogManager.getLogger(StepRunner.class);

  private final Scenario scenario;
  private final AgentEnsemble ensemble;
  private final RunListener listener;
  private final FaultBounds bounds;
  private volatile ActiveStep active;

  /** The step running now, for an interrupted coordinator to abort and clean. */
  public record ActiveStep(String agentRunId, String stepId, List<Agent> agents) {}

  public StepRunner(Scenario scenario, AgentEnsemble ensemble, RunListener listener) {
    this(scenario, ensemble, listener, FaultBounds.defaults());
  }

  public StepRunner(
      Scenario scenario, AgentEnsemble ensemble, RunListener listener, FaultBounds bounds) {
    this.scenario = scenario;
    this.ensemble = ensemble;
    this.listener = listener;
    this.bounds = bounds;
  }

  /** The step in progress, or null between steps. */
  public ActiveStep active() {
    return active;
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
    Map<Agent, PrepareResponse> preparedPaths = Map.of();
    long startAt = 0;
    active = new ActiveStep(agentRunId, stepId, agents);
    StepGuard guard =
        new StepGuard(
            agentRunId,
            agents,
            bounds.forAgents(agents.size()),
            (lostAgent, reason) ->
                abortOthers(
                    agents,
                    lostAgent,
                    agentRunId,
                    "node " + names.get(lostAgent) + " was lost: " + reason));
    try {
      FanOut<PrepareResponse> prepared =
          phase(
              guard,
              "prepare",
              agents,
              a ->
                  a.prepare(
                      PrepareRequest.newBuilder()
                          .setRunId(agentRunId)
                          .setWorkload(scenario.workload())
                          .setLeaseMillis(bounds.leaseMillis())
                          .setStepNodeCount(agents.size())
                          .setTelemetryOff(!scenario.telemetry())
                          .build()),
              PREPARE_PHASE_MILLIS,
              names,
              errors);
      preparedPaths = prepared.values();
      if (!prepared.ok()) {
        return failed(stepId, kind, names, errors);
      }
      FanOut<ClockOffset> clock =
          phase(
              guard, "clock sync", agents, ClockOffset::measure, SHORT_PHASE_MILLIS, names, errors);
      if (!clock.ok()) {
        abortAll(guard, agents, agentRunId, "clock sync failed");
        return failed(stepId, kind, names, errors);
      }
      clocks = clock.values();
      long maxRtt = clocks.values().stream().mapToLong(ClockOffset::roundTripNanos).max().orElse(0);
      long lead = Math.max(scenario.startLead().toNanos(), 20 * maxRtt);
      startAt = WallClock.nowNanos() + lead;
      final long instant = startAt;
      final Map<Agent, ClockOffset> offsets = clocks;
      FanOut<?> armed =
          phase(
              guard,
              "start",
              agents,
              a -> a.start(agentRunId, offsets.get(a).toAgentClock(instant)),
              SHORT_PHASE_MILLIS,
              names,
              errors);
      if (!armed.ok()) {
        abortAll(guard, agents, agentRunId, "another node could not be armed");
        return failed(stepId, kind, names, errors);
      }
      listener.stepArmed(stepId, List.copyOf(names.values()), lead / 1_000_000);
      watch(guard, agentRunId, stepId, agents, names, errors, lead);
      FanOut<GetResultResponse> collected =
          phase(
              guard,
              "collect",
              live(guard, agents),
              a -> a.getResult(agentRunId),
              SHORT_PHASE_MILLIS,
              names,
              errors);
      results = collected.values();
    } finally {
      guard.cleaning();
      FanOut<CleanupResponse> cleaned =
          phase(
              guard,
              "cleanup",
              live(guard, agents),
              a -> a.cleanup(agentRunId),
              CLEANUP_PHASE_MILLIS,
              names,
              errors);
      cleanups = cleaned.values();
      // only now, every node having cleaned: the step's directory may be shared by all of them
      phase(
          guard,
          "remove run directory",
          List.copyOf(cleanups.keySet()),
          a -> a.removeRunDir(agentRunId),
          SHORT_PHASE_MILLIS,
          names,
          errors);
      cleanups.forEach(
          (a, c) ->
              c.getLeftoversList()
                  .forEach(l -> errors.add("node " + names.get(a) + ": cleanup left " + l)));
      guard.close();
      active = null;
      reportLost(guard, names, preparedPaths, errors);
    }
    return assemble(stepId, kind, names, results, clocks, cleanups, startAt, errors);
  }

  private static List<Agent> live(StepGuard guard, List<Agent> agents) {
    return agents.stream().filter(a -> !guard.isLost(a)).toList();
  }

  /**
   * One line per lost agent: why, and the files it could not remove (its own lease removes them if
   * it runs again).
   */
  private void reportLost(
      StepGuard guard,
      Map<Agent, String> names,
      Map<Agent, PrepareResponse> prepared,
      List<String> errors) {
    guard
        .lost()
        .forEach(
            (a, reason) -> {
              PrepareResponse p = prepared.get(a);
              String files =
                  p == null
                      ? "the files it created are unknown (its Prepare did not answer)"
                      : p.getPathsList().isEmpty()
                          ? "it had created no files"
                          : "files it could not remove (under its root): "
                              + String.join(", ", p.getPathsList());
              errors.add(
                  "node "
                      + names.get(a)
                      + ": lost: "
                      + reason
                      + "; "
                      + files
                      + "; the agent removes them itself within its lease of "
                      + bounds.leaseMillis() / 1000
                      + " s if it still runs, or when it starts again (run manifest)");
            });
  }

  /**
   * Aborts every agent of the step but the lost one, at once and without waiting (called from a
   * heartbeat or stream thread).
   */
  private void abortOthers(List<Agent> agents, Agent lost, String agentRunId, String reason) {
    Thread t =
        new Thread(
            () ->
                ensemble.call(
                    "abort",
                    agents.stream().filter(a -> a != lost).toList(),
                    a -> {
                      safely(() -> a.abort(agentRunId, reason));
                      return true;
                    },
                    SHORT_PHASE_MILLIS),
            "abort-" + agentRunId);
    t.setDaemon(true);
    t.start();
  }

  private void watch(
      StepGuard guard,
      String agentRunId,
      String stepId,
      List<Agent> agents,
      Map<Agent, String> names,
      List<String> errors,
      long leadNanos) {
    AtomicBoolean aborted = new AtomicBoolean();
    long timeoutMillis = scenario.timeout().toMillis() + leadNanos / 1_000_000 + 5_000;
    FanOut<RunState> watched =
        ensemble.call(
            "run",
            agents,
            a ->
                guard.call(
                    a,
                    "run",
                    x -> {
                      RunState last = RunState.RUN_STATE_UNSPECIFIED;
                      try {
                        Iterator<WatchProgressResponse> it =
                            a.watchProgress(agentRunId, PROGRESS_INTERVAL_MILLIS, timeoutMillis);
                        while (it.hasNext()) {
                          WatchProgressResponse p = it.next();
                          last = p.getState();
                          listener.progress(stepId, names.get(a), p.getSample(), last);
                        }
                      } catch (AgentCallException e) {
                        if (e.code() != Status.Code.DEADLINE_EXCEEDED) {
                          // a stream that breaks (agent killed, restarted, unreachable) is a lost
                          // node, now
                          guard.lose(a, "progress stream broke: " + e.detail());
                        }
                        throw e;
                      }
                      if (last == RunState.RUN_STATE_FAILED && aborted.compareAndSet(false, true)) {
                        for (Agent other : agents) {
                          if (other != a) {
                            safely(
                                () -> other.abort(agentRunId, "node " + names.get(a) + " failed"));
                          }
                        }
                      }
                      return last;
                    }),
            timeoutMillis + 5_000);
    if (!watched.ok()) {
      watched
          .errors()
          .forEach(
              (a, e) -> {
                if (!guard.isLost(a)) {
                  errors.add(nodeMessage(names.get(a), "run", e));
                }
              });
      if (watched.errors().keySet().stream().anyMatch(a -> !guard.isLost(a))) {
        abortAll(
            guard,
            agents,
            agentRunId,
            "the run did not finish on every node within " + scenario.timeout());
      }
    }
  }

  /**
   * One phase as a barrier over the agents; errors of lost agents are left to their "lost" line.
   */
  private <T> FanOut<T> phase(
      StepGuard guard,
      String phase,
      List<Agent> agents,
      Function<Agent, T> call,
      long timeoutMillis,
      Map<Agent, String> names,
      List<String> errors) {
    long began = System.nanoTime();
    FanOut<T> out = ensemble.call(phase, agents, a -> guard.call(a, phase, call), timeoutMillis);
    LOG.info(
        "phase {}: {} agents, {} ms",
        phase,
        agents.size(),
        (System.nanoTime() - began) / 1_000_000);
    out.errors()
        .forEach(
            (a, e) -> {
              LOG.warn("{} failed on {}: {}", phase, a.address(), e.getMessage());
              if (!guard.isLost(a)) {
                errors.add(nodeMessage(names.get(a), phase, e));
              }
            });
    return out;
  }

  private static String nodeMessage(String node, String phase, RuntimeException e) {
    String detail = e instanceof AgentCallException ace ? ace.detail() : e.getMessage();
    return "node " + node + ": " + phase + ": " + detail;
  }

  private void abortAll(StepGuard guard, List<Agent> agents, String agentRunId, String reason) {
    ensemble.call(
        "abort",
        live(guard, agents),
        a -> {
          safely(() -> guard.call(a, "abort", x -> x.abort(agentRunId, reason)));
          return true;
        },
        SHORT_PHASE_MILLIS);
  }

  private static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      LOG.debug("ignored during abort: {}", e.getMessage());
    }
  }

  private StepRecord failed(
      String stepId, String kind, Map<Agent, String> names, List<String> errors) {
    return new StepRecord(
        stepId,
        kind,
        List.copyOf(names.values()),
        0,
        RunStatus.FAILED,
        List.of(),
        null,
        List.copyOf(errors));
  }

  private StepRecord assemble(
      String stepId,
      String kind,
      Map<Agent, String> names,
      Map<Agent, GetResultResponse> results,
      Map<Agent, ClockOffset> clocks,
      Map<Agent, CleanupResponse> cleanups,
      long startAt,
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
      NodeResult nr =
          NodeResults.of(
              e.getValue(),
              r.getResult(),
              clock,
              startAt,
              bytesUnit,
              c == null ? 0 : c.getFilesRemoved());
      nodes.add(nr);
      merged.add(LatencyHistograms.decode(r.getResult().getLatencyHistogram()));
      if (nr.error() != null && !nr.ok()) {
        errors.add("node " + nr.node() + ": " + nr.status() + ": " + nr.error().message());
      }
    }
    nodes = NodeResults.withShares(nodes);
    boolean ok =
        errors.isEmpty() && nodes.size() == names.size() && nodes.stream().allMatch(NodeResult::ok);
    return new StepRecord(
        stepId,
        kind,
        List.copyOf(names.values()),
        startAt,
        ok ? RunStatus.OK : RunStatus.FAILED,
        List.copyOf(nodes),
        aggregate(nodes, merged, bytesUnit),
        List.copyOf(errors));
  }

  /**
   * The step's figures over its nodes: merged histogram, summed and overlap throughput, largest
   * skew.
   */
  public static Aggregate aggregate(List<NodeResult> nodes, Histogram merged, boolean bytesUnit) {
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
    return new Aggregate(
        seconds,
        ops,
        bytes,
        NodeResults.throughput(bytesUnit, ops, bytes, seconds),
        sum,
        skew,
        Latency.of(merged),
        Base64.getEncoder().encodeToString(LatencyHistograms.encode(merged).toByteArray()));
  }
}

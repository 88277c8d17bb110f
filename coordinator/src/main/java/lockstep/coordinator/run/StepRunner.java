package lockstep.coordinator.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.PrepareResponse;
import lockstep.agent.v1.RunState;
import lockstep.common.WallClock;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.results.StepResults;
import lockstep.coordinator.results.StepResults.NodeOutcome;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Runs one step on a set of nodes through its {@link Phase}s, each a barrier over every node:
 * prepare, clock sync, start (at one instant), run (watch progress), collect, cleanup, remove run
 * directory. Cleanup always runs; a node that fails or is lost makes the others abort.
 */
public final class StepRunner {
  // Once a second, as dd's and fio's status lines: each sample is a gRPC message over TLS, and on
  // a one-CPU emulated guest the agent's four a second at 250 ms took 0.7% of the CPU inside the
  // measured part (the run's own series is sampled every 100 ms on the agent either way).
  static final int PROGRESS_INTERVAL_MILLIS = 1000;
  private static final Logger LOG = LogManager.getLogger(StepRunner.class);

  private final RunSetup setup;
  private volatile ActiveStep active;

  /** The step running now, for an interrupted coordinator to abort and clean. */
  public record ActiveStep(String agentRunId, String stepId, List<Agent> agents) {}

  public StepRunner(RunSetup setup) {
    this.setup = setup;
  }

  /** The step in progress, or null between steps. */
  public ActiveStep active() {
    return active;
  }

  public StepRecord run(String runId, String stepId, String kind, List<StepNode> nodes) {
    return run(runId, stepId, kind, nodes, List.of());
  }

  /**
   * The step on {@code nodes}, with {@code watching}'s agents sampling their nodes' resources from
   * the same instant until the workload has ended everywhere (watch-only: no workload, in no
   * figure; a fault may name them).
   */
  public StepRecord run(
      String runId, String stepId, String kind, List<StepNode> nodes, List<StepNode> watching) {
    StepContext step = new StepContext(runId, stepId, nodes, watching);
    List<Agent> agents = step.agents();
    Map<Agent, GetResultResponse> results = Map.of();
    Map<Agent, ClockOffset> clocks = Map.of();
    Map<Agent, CleanupResponse> cleanups = Map.of();
    Map<Agent, PrepareResponse> prepared = Map.of();
    long startAt = 0;
    long began = System.nanoTime();
    active = new ActiveStep(step.agentRunId(), stepId, agents);
    StepFaults faults =
        StepFaults.of(
            setup.scenario().faults(), step.nodes(), step.watchingNodes(), setup.injector());
    step.guardedBy(
        new StepGuard(
            step.agentRunId(),
            agents,
            setup.bounds().forAgents(agents.size()),
            (lostAgent, reason) -> {
              String node = step.node(lostAgent);
              if (faults.expectsLoss(node)) {
                // the scenario's own doing: the survivors run on
                faults.victimLost(node);
                LOG.info("node {} lost to the scenario's fault: {}", node, reason);
              } else {
                abortOthers(step, lostAgent, "node " + node + " was lost: " + reason);
              }
            }));
    try {
      FanOut<PrepareResponse> ready =
          phase(step, Phase.PREPARE, agents, a -> a.prepareAsync(prepare(step, a)));
      prepared = ready.values();
      if (!ready.ok()) {
        return StepResults.failed(stepId, kind, step.nodes(), step.errors());
      }
      FanOut<ClockOffset> clock = clockSync(step, agents);
      if (!clock.ok()) {
        abortAll(step, "clock sync failed");
        return StepResults.failed(stepId, kind, step.nodes(), step.errors());
      }
      clocks = clock.values();
      long maxRtt = clocks.values().stream().mapToLong(ClockOffset::roundTripNanos).max().orElse(0);
      long lead = Math.max(setup.scenario().startLead().toNanos(), 20 * maxRtt);
      startAt = WallClock.nowNanos() + lead;
      final long instant = startAt;
      final Map<Agent, ClockOffset> offsets = clocks;
      FanOut<?> armed =
          phase(
              step,
              Phase.START,
              agents,
              a -> a.startAsync(step.agentRunId(), offsets.get(a).toAgentClock(instant)));
      if (!armed.ok()) {
        abortAll(step, "another node could not be armed");
        return StepResults.failed(stepId, kind, step.nodes(), step.errors());
      }
      setup.listener().stepArmed(stepId, step.nodes(), lead / 1_000_000);
      faults.schedule(instant);
      watch(step, lead, faults);
      finishWatchers(step);
      faults.close();
      results =
          phase(step, Phase.COLLECT, step.live(), a -> a.getResultAsync(step.agentRunId()))
              .values();
    } finally {
      faults.close();
      step.guard().cleaning();
      cleanups =
          phase(step, Phase.CLEANUP, step.live(), a -> a.cleanupAsync(step.agentRunId())).values();
      // only now, every node having cleaned: the step's directory may be shared by all of them
      phase(
          step,
          Phase.REMOVE_RUN_DIR,
          List.copyOf(cleanups.keySet()),
          a -> a.removeRunDirAsync(step.agentRunId()));
      cleanups.forEach(
          (a, c) ->
              c.getLeftoversList()
                  .forEach(l -> step.error("node " + step.node(a) + ": cleanup left " + l)));
      step.guard().close();
      active = null;
      reportLost(step, prepared, faults.lostVictims());
      faults.recover().forEach(step::error);
    }
    LOG.info(
        "step {}: {} agents, {} ms",
        stepId,
        agents.size(),
        (System.nanoTime() - began) / 1_000_000);
    List<NodeOutcome> outcomes = new ArrayList<>();
    List<NodeOutcome> watched = new ArrayList<>();
    for (Agent a : agents) {
      GetResultResponse r = results.get(a);
      ClockOffset clock = clocks.get(a);
      if (r != null && clock != null) {
        CleanupResponse c = cleanups.get(a);
        (step.watches(a) ? watched : outcomes)
            .add(
                new NodeOutcome(
                    step.node(a),
                    r.getResult(),
                    clock,
                    startAt,
                    c == null ? 0 : c.getFilesRemoved()));
      }
    }
    return StepResults.of(
            stepId,
            kind,
            step.nodes(),
            startAt,
            outcomes,
            watched,
            setup.scenario().kind(),
            step.errors(),
            faults.lostVictims())
        .withFaults(
            faults.records(
                clocksByNode(step, clocks), startAt, setup.scenario().kind().countsBytes()));
  }

  private static Map<String, ClockOffset> clocksByNode(
      StepContext step, Map<Agent, ClockOffset> clocks) {
    Map<String, ClockOffset> out = new HashMap<>();
    clocks.forEach((a, c) -> out.put(step.node(a), c));
    return out;
  }

  private PrepareRequest prepare(StepContext step, Agent a) {
    return PrepareRequest.newBuilder()
        .setRunId(step.agentRunId())
        .setWorkload(setup.scenario().workload())
        .setLeaseMillis(setup.bounds().leaseMillis())
        .setStepNodeCount(step.workers().size())
        .setTelemetryOff(!setup.scenario().telemetry())
        .setWatchOnly(step.watches(a))
        .build();
  }

  /** The workload has ended on every node: the watch-only nodes' runs end too. */
  private void finishWatchers(StepContext step) {
    List<Agent> watching = step.live().stream().filter(step::watches).toList();
    if (!watching.isEmpty()) {
      phase(step, Phase.FINISH, watching, a -> a.finishAsync(step.agentRunId()));
    }
  }

  /**
   * One line per lost agent: why, and the files it could not remove (its own lease removes them if
   * it runs again).
   */
  private void reportLost(
      StepContext step, Map<Agent, PrepareResponse> prepared, Set<String> lostToFaults) {
    step.guard()
        .lost()
        .forEach(
            (a, reason) -> {
              if (lostToFaults.contains(step.node(a))) {
                return; // expected: its fault's record says so
              }
              PrepareResponse p = prepared.get(a);
              String files =
                  p == null
                      ? "the files it created are unknown (its Prepare did not answer)"
                      : p.getPathsList().isEmpty()
                          ? "it had created no files"
                          : "files it could not remove (under its root): "
                              + String.join(", ", p.getPathsList());
              step.error(
                  "node "
                      + step.node(a)
                      + ": lost: "
                      + reason
                      + "; "
                      + files
                      + "; the agent removes them itself within its lease of "
                      + setup.bounds().leaseMillis() / 1000
                      + " s if it still runs, or when it starts again (run manifest)");
            });
  }

  /**
   * Aborts every agent of the step but the lost one, at once and without waiting (called from a
   * heartbeat or stream thread).
   */
  private void abortOthers(StepContext step, Agent lost, String reason) {
    List<Agent> others = step.agents().stream().filter(a -> a != lost).toList();
    Thread t =
        new Thread(
            () ->
                setup
                    .ensemble()
                    .callAsync(
                        Phase.ABORT.label(),
                        Phase.ABORT.budget(),
                        others,
                        a -> step.guard().scope(a),
                        a -> safely(a.abortAsync(step.agentRunId(), reason))),
            "abort-" + step.agentRunId());
    t.setDaemon(true);
    t.start();
  }

  private void watch(StepContext step, long leadNanos, StepFaults faults) {
    AtomicBoolean aborted = new AtomicBoolean();
    Duration budget = Phase.runBudget(setup.scenario().timeout(), Duration.ofNanos(leadNanos));
    List<Agent> agents = step.workers();
    FanOut<RunState> watched =
        setup
            .ensemble()
            .callAsync(
                Phase.RUN.label(),
                budget,
                agents,
                step.guard()::scope,
                step.guard()
                    .unlessLost(
                        Phase.RUN.label(),
                        a ->
                            follow(step, a, faults)
                                .thenApply(
                                    last -> {
                                      if (last == RunState.RUN_STATE_FAILED
                                          && aborted.compareAndSet(false, true)) {
                                        abortOthers(step, a, "node " + step.node(a) + " failed");
                                      }
                                      return last;
                                    })));
    if (!watched.ok()) {
      watched
          .errors()
          .forEach(
              (a, e) -> {
                if (!step.guard().isLost(a)) {
                  step.error(nodeMessage(step.node(a), Phase.RUN, e));
                }
              });
      if (watched.errors().keySet().stream().anyMatch(a -> !step.guard().isLost(a))) {
        abortAll(step, "the run did not finish on every node within " + setup.scenario().timeout());
      }
    }
  }

  /**
   * One agent's progress stream to its end: its samples to the listener as they arrive; the run's
   * last state. A stream that breaks (agent killed, restarted, unreachable) loses the agent at
   * once; one the phase gave up on, or cancelled because the agent is already lost, is not news.
   */
  private CompletableFuture<RunState> follow(StepContext step, Agent a, StepFaults faults) {
    return a.watchProgress(
            step.agentRunId(),
            PROGRESS_INTERVAL_MILLIS,
            p -> {
              setup.listener().progress(step.stepId(), step.node(a), p.getSample(), p.getState());
              faults.progress(step.node(a), p.getSample());
            })
        .whenComplete(
            (last, error) -> {
              Throwable e = error instanceof CompletionException c ? c.getCause() : error;
              if (e instanceof AgentCallException ace && !ace.timedOut() && !ace.cancelled()) {
                step.guard().lose(a, "progress stream broke: " + ace.detail());
              }
            });
  }

  /**
   * One phase as a barrier over the agents, its calls asynchronous; errors of lost agents are left
   * to their "lost" line.
   */
  private <T> FanOut<T> phase(
      StepContext step,
      Phase phase,
      List<Agent> agents,
      Function<Agent, CompletableFuture<T>> call) {
    return logged(
        step,
        phase,
        agents,
        () ->
            setup
                .ensemble()
                .callAsync(
                    phase.label(),
                    phase.budget(),
                    agents,
                    step.guard()::scope,
                    step.guard().unlessLost(phase.label(), call)));
  }

  /**
   * Clock sync: {@link ClockOffset#AGENTS_AT_ONCE} agents at a time, each probed on a thread of its
   * own (a probe's answer is timed on the thread that sent it).
   */
  private FanOut<ClockOffset> clockSync(StepContext step, List<Agent> agents) {
    Phase phase = Phase.CLOCK_SYNC;
    return logged(
        step,
        phase,
        agents,
        () ->
            setup
                .ensemble()
                .call(
                    phase.label(),
                    phase.budget(),
                    agents,
                    step.guard()::scope,
                    ClockOffset.AGENTS_AT_ONCE,
                    step.guard().unlessLost(phase.label(), ClockOffset::measure)));
  }

  /** {@code fanOut}, its time logged and its errors the step's. */
  private <T> FanOut<T> logged(
      StepContext step, Phase phase, List<Agent> agents, Supplier<FanOut<T>> fanOut) {
    long began = System.nanoTime();
    FanOut<T> out = fanOut.get();
    LOG.info(
        "phase {}: {} agents, {} ms",
        phase,
        agents.size(),
        (System.nanoTime() - began) / 1_000_000);
    out.errors()
        .forEach(
            (a, e) -> {
              LOG.warn("{} failed on {}: {}", phase, a.address(), e.getMessage());
              if (!step.guard().isLost(a)) {
                step.error(nodeMessage(step.node(a), phase, e));
              }
            });
    return out;
  }

  private static String nodeMessage(String node, Phase phase, RuntimeException e) {
    String detail = e instanceof AgentCallException ace ? ace.detail() : e.getMessage();
    return "node " + node + ": " + phase.label() + ": " + detail;
  }

  private void abortAll(StepContext step, String reason) {
    setup
        .ensemble()
        .callAsync(
            Phase.ABORT.label(),
            Phase.ABORT.budget(),
            step.live(),
            step.guard()::scope,
            a -> safely(a.abortAsync(step.agentRunId(), reason)));
  }

  /** An abort's answer, its error ignored (an agent that cannot abort has nothing running). */
  private static CompletableFuture<Boolean> safely(CompletableFuture<?> abort) {
    return abort.handle(
        (r, e) -> {
          if (e != null) {
            LOG.debug("ignored during abort: {}", e.getMessage());
          }
          return true;
        });
  }
}

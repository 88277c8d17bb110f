package lockstep.coordinator.run;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.common.DaemonThreads;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.CallScope;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Watches agents while the coordinator waits on them: renews the run's lease on every agent with a
 * KeepAlive every heartbeat (for Describe, before any run, the KeepAlive names no run and only asks
 * whether the agent answers), and declares an agent lost when a heartbeat fails (unreachable, no
 * answer within its deadline, or the run's lease already ran out there) or when the step reports a
 * broken stream ({@link #lose}). Each agent's calls run in its own {@link CallScope}: losing the
 * agent cancels them, and the step is told once, so that it aborts the others.
 *
 * <p>One thread sends every agent's beats, each without waiting for its answer (the answer is
 * handled on that thread when it comes): a step of a thousand agents costs no thread per agent.
 */
final class StepGuard implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(StepGuard.class);

  private final String runId;
  private final List<String> runIds;
  private final FaultBounds bounds;
  private final Map<Agent, CallScope> scopes = new LinkedHashMap<>();
  private final Map<Agent, String> lost = new ConcurrentHashMap<>();
  private final BiConsumer<Agent, String> onLost;
  private final boolean onlySilenceLoses;
  private final ScheduledExecutorService heartbeats;
  private volatile boolean cleaning;
  private volatile boolean closed;

  /**
   * @param runId the run whose lease the beats renew
   * @param onLost called once per lost agent, on the heartbeat or a stream thread
   */
  StepGuard(
      String runId, List<Agent> agents, FaultBounds bounds, BiConsumer<Agent, String> onLost) {
    this(runId, agents, bounds, onLost, false);
  }

  /**
   * Watches agents while they are described, before any run: only a heartbeat without an answer in
   * time loses an agent. One that fails at once (refused, unreachable) fails the Describe at once
   * too, which then says why in its own words.
   */
  static StepGuard whileDescribing(List<Agent> agents, FaultBounds bounds) {
    return new StepGuard(null, agents, bounds, (a, why) -> {}, true);
  }

  private StepGuard(
      String runId,
      List<Agent> agents,
      FaultBounds bounds,
      BiConsumer<Agent, String> onLost,
      boolean onlySilenceLoses) {
    this.runId = runId;
    this.onlySilenceLoses = onlySilenceLoses;
    this.runIds = runId == null ? List.of() : List.of(runId);
    this.bounds = bounds;
    this.onLost = onLost;
    // one scope of its own per agent, no common parent: a parent's listeners are a list, and a
    // thousand calls ending would each search it
    agents.forEach(a -> scopes.put(a, CallScope.open()));
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("heartbeat-" + (runId == null ? "describe" : runId)));
    long period = TimeUnit.MILLISECONDS.toNanos(bounds.heartbeatMillis());
    for (int i = 0; i < agents.size(); i++) {
      Agent a = agents.get(i);
      // The first beats are spread over one period, so the agents' KeepAlives do not all land
      // (and wake the agents' and the coordinator's threads) at one moment.
      heartbeats.schedule(() -> beat(a), period * i / agents.size(), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * One KeepAlive, within the heartbeat's deadline; the next is scheduled once this one's answer
   * (or error) is in, one heartbeat later: one beat per agent at a time, a slow one delays the
   * next.
   */
  private void beat(Agent a) {
    if (closed || lost.containsKey(a)) {
      return;
    }
    CallScope call = scopes.get(a).within(Duration.ofMillis(bounds.heartbeatDeadlineMillis()));
    CompletableFuture<KeepAliveResponse> answer;
    try {
      answer = call.run(() -> a.keepAlive(runIds));
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    answer.whenCompleteAsync(
        (r, e) -> {
          call.close();
          answered(a, r, e);
          if (!closed && !lost.containsKey(a)) {
            try {
              heartbeats.schedule(() -> beat(a), bounds.heartbeatMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException ex) {
              // closed meanwhile
            }
          }
        },
        this::onBeatThread);
  }

  /** On the heartbeat thread; nothing once the guard is closed. */
  private void onBeatThread(Runnable r) {
    if (closed) {
      return;
    }
    try {
      heartbeats.execute(r);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private void answered(Agent a, KeepAliveResponse r, Throwable error) {
    if (error == null) {
      // a run its owner aborted (`lockstep abort`) is not a lost agent: the step reads why in its
      // result
      if (!r.getExpiredRunIdsList().isEmpty() && r.getAbortedRunIdsList().isEmpty() && !cleaning) {
        lose(
            a,
            "its lease of "
                + bounds.leaseMillis()
                + " ms ran out on the agent (the run was aborted there)");
      }
      return;
    }
    if (closed) {
      // the step is over: closing ended this beat in flight, which says nothing about the agent
      return;
    }
    if (error instanceof AgentCallException e) {
      if (e.unimplemented()) {
        LOG.warn(
            "agent {} has no KeepAlive (older version); its run relies on the progress stream",
            a.address());
        return;
      }
      if (onlySilenceLoses && !e.timedOut()) {
        return;
      }
      lose(
          a,
          "no heartbeat: "
              + e.detail()
              + " (KeepAlive every "
              + bounds.heartbeatMillis()
              + " ms, deadline "
              + bounds.heartbeatDeadlineMillis()
              + " ms)");
    } else {
      LOG.warn("heartbeat of {} failed: {}", a.address(), error.toString());
    }
  }

  /** Declares an agent lost (first reason wins): its calls are cancelled and the step told. */
  void lose(Agent a, String reason) {
    if (!closed && lost.putIfAbsent(a, reason) == null) {
      LOG.warn(
          "agent {} lost {}: {}",
          a.address(),
          runId == null ? "while described" : "during run " + runId,
          reason);
      CallScope s = scopes.get(a);
      if (s != null) {
        s.cancel("agent lost: " + reason);
      }
      onLost.accept(a, reason);
    }
  }

  /** From now on a run cleaned on an agent is expected, not a lost lease. */
  void cleaning() {
    cleaning = true;
  }

  boolean isLost(Agent a) {
    return lost.containsKey(a);
  }

  /** Lost agents and why, in the order of the step's agents. */
  Map<Agent, String> lost() {
    Map<Agent, String> out = new LinkedHashMap<>();
    scopes
        .keySet()
        .forEach(
            a -> {
              String r = lost.get(a);
              if (r != null) {
                out.put(a, r);
              }
            });
    return out;
  }

  /** The scope {@code a}'s calls run in: cancelled when {@code a} is lost or the guard closes. */
  CallScope scope(Agent a) {
    return scopes.get(a);
  }

  /** {@code call} on {@code a}, unless {@code a} is lost (then it fails as its calls would). */
  <T> Function<Agent, T> unlessLost(String phase, Function<Agent, T> call) {
    return a -> {
      String reason = lost.get(a);
      if (reason != null) {
        throw AgentCallException.lost(a.address(), phase, reason);
      }
      return call.apply(a);
    };
  }

  /**
   * Stops the heartbeats and ends every call still in the agents' scopes (a beat in flight then
   * reports nothing: the step is over).
   */
  @Override
  public void close() {
    closed = true;
    heartbeats.shutdownNow();
    scopes.values().forEach(s -> s.cancel("the step ended"));
  }
}

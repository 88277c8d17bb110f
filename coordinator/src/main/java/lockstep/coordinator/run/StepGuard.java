package lockstep.coordinator.run;

import io.grpc.Context;
import io.grpc.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentCallException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Watches the agents of one step from before Prepare until after Cleanup: renews the run's lease on
 * every agent with a KeepAlive every heartbeat, and declares an agent lost when a heartbeat fails
 * (unreachable, no answer within its deadline, or the run's lease already ran out there) or when
 * the step reports a broken stream ({@link #lose}). Losing an agent cancels its calls in flight
 * (each call runs in the agent's own cancellable gRPC context) and tells the step once, so that it
 * aborts the others.
 */
final class StepGuard implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(StepGuard.class);

  private final String runId;
  private final FaultBounds bounds;
  private final Map<Agent, Context.CancellableContext> contexts = new LinkedHashMap<>();
  private final Map<Agent, String> lost = new ConcurrentHashMap<>();
  private final BiConsumer<Agent, String> onLost;
  private final ScheduledExecutorService heartbeats;
  private volatile boolean cleaning;
  private volatile boolean closed;

  /**
   * @param onLost called once per lost agent, on a heartbeat or stream thread
   */
  StepGuard(
      String runId, List<Agent> agents, FaultBounds bounds, BiConsumer<Agent, String> onLost) {
    this.runId = runId;
    this.bounds = bounds;
    this.onLost = onLost;
    agents.forEach(a -> contexts.put(a, Context.ROOT.withCancellation()));
    this.heartbeats =
        Executors.newScheduledThreadPool(
            agents.size(),
            r -> {
              Thread t = new Thread(r, "heartbeat-" + runId);
              t.setDaemon(true);
              return t;
            });
    long period = TimeUnit.MILLISECONDS.toNanos(bounds.heartbeatMillis());
    for (int i = 0; i < agents.size(); i++) {
      Agent a = agents.get(i);
      // Fixed delay: one heartbeat per agent at a time; a slow one delays the next. The
      // first beats are spread over one period, so the agents' KeepAlives do not all land
      // (and wake the agents' and the coordinator's threads) at one moment.
      heartbeats.scheduleWithFixedDelay(
          () -> beat(a), period * i / agents.size(), period, TimeUnit.NANOSECONDS);
    }
  }

  private void beat(Agent a) {
    if (lost.containsKey(a)) {
      return;
    }
    try {
      KeepAliveResponse r = a.keepAlive(List.of(runId), bounds.heartbeatDeadlineMillis());
      // a run its owner aborted (`lockstep abort`) is not a lost agent: the step reads why in its
      // result
      if (!r.getExpiredRunIdsList().isEmpty() && r.getAbortedRunIdsList().isEmpty() && !cleaning) {
        lose(
            a,
            "its lease of "
                + bounds.leaseMillis()
                + " ms ran out on the agent (the run was aborted there)");
      }
    } catch (AgentCallException e) {
      if (closed) {
        // the step is over: close() interrupted this beat in flight ("Thread interrupted"),
        // which says nothing about the agent
        return;
      }
      if (e.code() == Status.Code.UNIMPLEMENTED) {
        LOG.warn(
            "agent {} has no KeepAlive (older version); its run relies on the progress stream",
            a.address());
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
    } catch (RuntimeException e) {
      LOG.warn("heartbeat of {} failed: {}", a.address(), e.toString());
    }
  }

  /** Declares an agent lost (first reason wins): its calls are cancelled and the step told. */
  void lose(Agent a, String reason) {
    if (!closed && lost.putIfAbsent(a, reason) == null) {
      LOG.warn("agent {} lost during run {}: {}", a.address(), runId, reason);
      Context.CancellableContext ctx = contexts.get(a);
      if (ctx != null) {
        ctx.cancel(
            Status.UNAVAILABLE.withDescription("agent lost: " + reason).asRuntimeException());
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
    contexts
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

  /** Runs a call to {@code a} in its cancellable context; a lost agent is not called at all. */
  <T> T call(Agent a, String phase, Function<Agent, T> call) {
    String reason = lost.get(a);
    if (reason != null) {
      throw new AgentCallException(
          a.address(), phase, Status.UNAVAILABLE.withDescription("agent lost: " + reason));
    }
    Context previous = contexts.get(a).attach();
    try {
      return call.apply(a);
    } finally {
      contexts.get(a).detach(previous);
    }
  }

  /**
   * Stops the heartbeats and waits (briefly) for a beat in flight to end: what an interrupted beat
   * then reports is not a lost agent.
   */
  @Override
  public void close() {
    closed = true;
    heartbeats.shutdownNow();
    try {
      heartbeats.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    contexts.values().forEach(c -> c.cancel(null));
  }
}

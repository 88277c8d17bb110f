package lockstep.coordinator.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import lockstep.common.DaemonThreads;

/**
 * Fans one call out to several agents on its own executor, waits for all of them (a barrier,
 * bounded by the phase's budget) and keeps each agent's result or error. Each agent's call runs in
 * a {@link CallScope} whose deadline is the phase's: when the phase gives up (its budget spent, or
 * the waiting thread interrupted) the calls still in flight are cancelled, on the wire too, so no
 * call outlives its phase.
 */
public final class AgentEnsemble implements AutoCloseable {
  private final List<Agent> agents;
  private final ExecutorService executor;
  private final CallScope scope = CallScope.open();

  public AgentEnsemble(List<Agent> agents) {
    this.agents = List.copyOf(agents);
    this.executor = Executors.newCachedThreadPool(DaemonThreads.named("ensemble"));
  }

  public List<Agent> agents() {
    return agents;
  }

  /** {@code call} on each of {@code targets} at once, within {@code budget}. */
  public <T> FanOut<T> call(
      String phase, Duration budget, Collection<Agent> targets, Function<Agent, T> call) {
    return call(phase, budget, targets, a -> scope, call);
  }

  /**
   * {@code call} on each of {@code targets} at once, each in a child of {@code within}'s scope for
   * that agent (cancelled when the agent is lost, say) that ends {@code budget} from now.
   */
  public <T> FanOut<T> call(
      String phase,
      Duration budget,
      Collection<Agent> targets,
      Function<Agent, CallScope> within,
      Function<Agent, T> call) {
    long deadline = System.nanoTime() + budget.toNanos();
    Map<Agent, CallScope> scopes = new LinkedHashMap<>();
    Map<Agent, CompletableFuture<T>> futures = new LinkedHashMap<>();
    for (Agent a : targets) {
      CallScope s = within.apply(a).child(deadline);
      scopes.put(a, s);
      futures.put(a, CompletableFuture.supplyAsync(() -> s.run(() -> call.apply(a)), executor));
    }
    boolean interrupted = !await(futures.values(), deadline);
    String gaveUp =
        interrupted
            ? phase + " was interrupted"
            : phase + " did not finish within " + budget.toMillis() + " ms";
    Map<Agent, T> values = new LinkedHashMap<>();
    Map<Agent, RuntimeException> errors = new LinkedHashMap<>();
    for (var e : futures.entrySet()) {
      Agent a = e.getKey();
      CompletableFuture<T> f = e.getValue();
      if (!f.isDone()) {
        // still in flight when the phase gave up: its call is cancelled, not left running
        if (interrupted) {
          scopes.get(a).cancel(gaveUp);
          errors.put(a, AgentCallException.cancelled(a.address(), phase, gaveUp));
        } else {
          scopes.get(a).expire(gaveUp);
          errors.put(a, AgentCallException.timedOut(a.address(), phase, gaveUp));
        }
        continue;
      }
      scopes.get(a).close();
      try {
        values.put(a, f.join());
      } catch (CompletionException ex) {
        Throwable cause = ex.getCause();
        errors.put(a, cause instanceof RuntimeException r ? r : new RuntimeException(cause));
      }
    }
    return new FanOut<>(phase, values, errors);
  }

  /**
   * Waits for every call until the deadline; false when the waiting thread was interrupted (its
   * interrupt kept for the caller).
   */
  private static boolean await(Collection<? extends CompletableFuture<?>> calls, long deadline) {
    try {
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      // every call ended, some with an error: read one by one
    } catch (TimeoutException e) {
      // the calls not done are given up on
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }

  /** Ends every call still in flight and closes the agents. */
  @Override
  public void close() {
    scope.cancel("the coordinator closed its connections");
    executor.shutdownNow();
    agents.forEach(Agent::close);
  }

  /** The outcome of one fan-out: a value or an error per agent. */
  public record FanOut<T>(String phase, Map<Agent, T> values, Map<Agent, RuntimeException> errors) {
    public boolean ok() {
      return errors.isEmpty();
    }

    public List<String> errorMessages() {
      List<String> out = new ArrayList<>();
      errors.forEach((a, e) -> out.add(e.getMessage()));
      return out;
    }
  }
}

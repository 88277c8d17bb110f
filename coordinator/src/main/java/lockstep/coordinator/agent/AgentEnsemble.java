package lockstep.coordinator.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import lockstep.common.DaemonThreads;

/**
 * Fans one call out to several agents, waits for all of them (a barrier, bounded by the phase's
 * budget) and keeps each agent's result or error. Each agent's call runs in a {@link CallScope}
 * whose deadline is the phase's: when the phase gives up (its budget spent, or the waiting thread
 * interrupted) the calls still in flight are cancelled, on the wire too, so no call outlives its
 * phase.
 *
 * <p>Asynchronous calls ({@link #callAsync}: a step's phases) are started from the calling thread
 * and cost no thread while in flight; blocking ones ({@link #call}) run on the ensemble's executor,
 * a thread per call in flight, or at most {@code atOnce} (clock probes, which time their answer on
 * the thread that sent them). One ListRuns to each of 1,024 in-process agents cost the coordinator
 * 92-187 ms of CPU as a thousand blocked threads, 24-31 ms asynchronously.
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
    return call(phase, budget, targets, within, Integer.MAX_VALUE, call);
  }

  /**
   * As {@link #call(String, Duration, Collection, Function, Function)}, with at most {@code atOnce}
   * agents' calls in flight (and as many threads): the others wait their turn in a queue, not on a
   * thread each. A call whose turn comes after its scope ended fails at once as it would have.
   */
  public <T> FanOut<T> call(
      String phase,
      Duration budget,
      Collection<Agent> targets,
      Function<Agent, CallScope> within,
      int atOnce,
      Function<Agent, T> call) {
    long deadline = System.nanoTime() + budget.toNanos();
    Map<Agent, CallScope> scopes = new LinkedHashMap<>();
    Map<Agent, CompletableFuture<T>> futures = new LinkedHashMap<>();
    Queue<Runnable> turns = new ConcurrentLinkedQueue<>();
    for (Agent a : targets) {
      CallScope s = within.apply(a).child(deadline);
      scopes.put(a, s);
      CompletableFuture<T> f = new CompletableFuture<>();
      futures.put(a, f);
      turns.add(
          () -> {
            try {
              f.complete(s.run(() -> call.apply(a)));
            } catch (Throwable e) {
              f.completeExceptionally(e);
            }
          });
    }
    Runnable worker =
        () -> {
          for (Runnable turn = turns.poll(); turn != null; turn = turns.poll()) {
            turn.run();
          }
        };
    for (int i = 0; i < Math.min(atOnce, futures.size()); i++) {
      executor.execute(worker);
    }
    return outcome(phase, budget, deadline, scopes, futures);
  }

  /**
   * {@code call} on each of {@code targets} at once, without a thread per call: each starts an
   * asynchronous call (in a child of {@code within}'s scope for that agent that ends {@code budget}
   * from now) and returns its answer's future, completed where the answer arrives. Only the calling
   * thread waits, for all of them, as {@link #call(String, Duration, Collection, Function,
   * Function)} does; an error thrown while starting a call is that agent's error.
   */
  public <T> FanOut<T> callAsync(
      String phase,
      Duration budget,
      Collection<Agent> targets,
      Function<Agent, CallScope> within,
      Function<Agent, CompletableFuture<T>> call) {
    long deadline = System.nanoTime() + budget.toNanos();
    Map<Agent, CallScope> scopes = new LinkedHashMap<>();
    Map<Agent, CompletableFuture<T>> futures = new LinkedHashMap<>();
    for (Agent a : targets) {
      CallScope s = within.apply(a).child(deadline);
      scopes.put(a, s);
      CompletableFuture<T> f;
      try {
        f = s.run(() -> call.apply(a));
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      futures.put(a, f);
    }
    return outcome(phase, budget, deadline, scopes, futures);
  }

  /**
   * Waits for every agent's call until {@code deadline}, then keeps each one's value or error; the
   * calls still in flight are cancelled (interrupted) or expired (out of time) with their scopes.
   */
  private static <T> FanOut<T> outcome(
      String phase,
      Duration budget,
      long deadline,
      Map<Agent, CallScope> scopes,
      Map<Agent, CompletableFuture<T>> futures) {
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

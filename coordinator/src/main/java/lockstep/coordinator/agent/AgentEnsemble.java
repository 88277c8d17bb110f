package lockstep.coordinator.agent;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import lockstep.common.DaemonThreads;

/**
 * Fans one call out to several agents on its own executor, waits for all of them (a barrier,
 * bounded by a timeout) and keeps each agent's result or error.
 */
public final class AgentEnsemble implements AutoCloseable {
  private final List<Agent> agents;
  private final ExecutorService executor;

  public AgentEnsemble(List<Agent> agents) {
    this.agents = List.copyOf(agents);
    this.executor = Executors.newCachedThreadPool(DaemonThreads.named("ensemble"));
  }

  public List<Agent> agents() {
    return agents;
  }

  public <T> FanOut<T> call(
      String phase, Collection<Agent> targets, Function<Agent, T> call, long timeoutMillis) {
    Map<Agent, CompletableFuture<T>> futures = new LinkedHashMap<>();
    for (Agent a : targets) {
      futures.put(a, CompletableFuture.supplyAsync(() -> call.apply(a), executor));
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    Map<Agent, T> values = new LinkedHashMap<>();
    Map<Agent, RuntimeException> errors = new LinkedHashMap<>();
    for (var e : futures.entrySet()) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        values.put(e.getKey(), e.getValue().get(left, TimeUnit.NANOSECONDS));
      } catch (ExecutionException ex) {
        Throwable cause = ex.getCause();
        errors.put(
            e.getKey(), cause instanceof RuntimeException r ? r : new RuntimeException(cause));
      } catch (TimeoutException ex) {
        e.getValue().cancel(true);
        errors.put(
            e.getKey(),
            new AgentCallException(
                e.getKey().address(),
                phase,
                Status.DEADLINE_EXCEEDED.withDescription(
                    phase + " did not finish within " + timeoutMillis + " ms")));
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        errors.put(e.getKey(), new RuntimeException("interrupted"));
      }
    }
    return new FanOut<>(phase, values, errors);
  }

  @Override
  public void close() {
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

package lockstep.coordinator.bench;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lockstep.common.DaemonThreads;

/**
 * The executor of {@link ControlPlaneBench}'s in-process agents' servers. Each real agent runs its
 * calls in a process of its own; a thousand simulated in one JVM on gRPC's default cached pool wake
 * a thread per call, and those hand-offs (futex_wake, perf) cost more than the calls. From {@link
 * #steps()} on, their calls share a few threads that stay busy while calls are queued. Until then
 * (Describe) they run on a cached pool: each Describe forks the node's commands (NodeEnvironment),
 * which on a few threads would hold up the agents' heartbeats past their deadline.
 */
final class SimulatedAgentCalls implements Executor, AutoCloseable {
  private final ExecutorService describing =
      Executors.newCachedThreadPool(DaemonThreads.named("simulated-agents-describe"));
  private final ExecutorService stepping;
  private volatile boolean steps;

  SimulatedAgentCalls(int threads) {
    this.stepping = Executors.newFixedThreadPool(threads, DaemonThreads.named("simulated-agents"));
  }

  /** The steps begin: calls from now on run on the few threads. */
  void steps() {
    steps = true;
  }

  @Override
  public void execute(Runnable call) {
    (steps ? stepping : describing).execute(call);
  }

  @Override
  public void close() {
    describing.shutdownNow();
    stepping.shutdownNow();
  }
}

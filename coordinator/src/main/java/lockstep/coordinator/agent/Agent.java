package lockstep.coordinator.agent;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import lockstep.agent.v1.AbortResponse;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.FinishResponse;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.agent.v1.ListRunsResponse;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.PrepareResponse;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.StartResponse;
import lockstep.agent.v1.WatchProgressResponse;

/**
 * How the coordinator sees one agent. Every call is bounded by the deadline of the {@link
 * CallScope} it runs in (a phase's budget), ends when that scope is cancelled, and fails with an
 * {@link AgentCallException} that names the agent and the call.
 *
 * <p>The calls a step makes on every agent also come asynchronously ({@code ...Async}): the call
 * starts in the scope current when it is made, no thread waits for it, and its answer (or an {@link
 * AgentCallException}) completes the future on the thread it arrives on, so what depends on it must
 * be quick. The blocking forms are for commands that ask a few agents once.
 */
public interface Agent extends AutoCloseable {
  /** host:port as given by the user. */
  String address();

  DescribeResponse describe();

  CompletableFuture<DescribeResponse> describeAsync();

  /** One clock probe: the agent's clock and the coordinator's around the call. */
  ClockSample probeClock();

  PrepareResponse prepare(PrepareRequest request);

  CompletableFuture<PrepareResponse> prepareAsync(PrepareRequest request);

  StartResponse start(String runId, long startAtAgentUnixNanos);

  CompletableFuture<StartResponse> startAsync(String runId, long startAtAgentUnixNanos);

  /**
   * Progress samples, each to {@code onSample} as it arrives, until the run ends (the future
   * completes with its last state) or the scope's deadline passes.
   */
  CompletableFuture<RunState> watchProgress(
      String runId, int intervalMillis, Consumer<WatchProgressResponse> onSample);

  GetResultResponse getResult(String runId);

  CompletableFuture<GetResultResponse> getResultAsync(String runId);

  default AbortResponse abort(String runId, String reason) {
    return abort(runId, reason, false);
  }

  /**
   * Aborts; with {@code removeFiles} also removes the run's files now, the agent keeping its result
   * (as its lease would).
   */
  AbortResponse abort(String runId, String reason, boolean removeFiles);

  CompletableFuture<AbortResponse> abortAsync(String runId, String reason);

  /** Ends a watch-only run (its node only sampled its resources) once the step's work is done. */
  CompletableFuture<FinishResponse> finishAsync(String runId);

  /** Removes the run's files and ends it; its directory stays until {@link #removeRunDir}. */
  CleanupResponse cleanup(String runId);

  CompletableFuture<CleanupResponse> cleanupAsync(String runId);

  /**
   * Removes the run's directory if empty: called once every node of the step has cleaned, since on
   * a shared root the directory is every node's (Cleanup with run_dir_only).
   */
  CleanupResponse removeRunDir(String runId);

  CompletableFuture<CleanupResponse> removeRunDirAsync(String runId);

  /**
   * Renews the leases of these runs (none: only asks whether the agent answers); also the
   * coordinator's heartbeat of the agent. Asynchronous: the answer, or an {@link
   * AgentCallException}, completes the future.
   */
  CompletableFuture<KeepAliveResponse> keepAlive(List<String> runIds);

  /** The runs the agent holds, its own and others' (for `lockstep collect`). */
  ListRunsResponse listRuns();

  @Override
  void close();
}

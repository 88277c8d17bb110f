package lockstep.agent.workload;

import java.util.List;
import lockstep.agent.v1.WorkloadResult;

/**
 * One workload on one agent, in the run's phases: {@link #prepare} sets everything up so that
 * {@link #run} measures only the work, {@link #cleanup} removes what the run created.
 */
public interface Workload {
  /** What one counted operation is, e.g. "write" or "lock". */
  String opName();

  /** Sets up files, buffers and worker processes; throws on anything that would fail later. */
  void prepare();

  /** Paths (relative to the root) the run creates. */
  List<String> paths();

  /** OS processes started for the run: none for a workload in the agent's own threads. */
  default List<Long> workerPids() {
    return List.of();
  }

  /** Cumulative operations and bytes so far; safe to call from any thread. */
  long opsSoFar();

  /** Bytes moved so far: none for a workload that counts operations only. */
  default long bytesSoFar() {
    return 0;
  }

  /**
   * Waits for the instant, does the work and returns the result (ops, bytes, instants, histogram,
   * error). Blocks the calling thread until done or aborted.
   */
  WorkloadResult.Builder run(long startAtUnixNanos);

  /** Stops a running workload as soon as possible; {@link #run} then returns. */
  void abort();

  /** Releases everything and removes the files the run created. */
  CleanupReport cleanup();
}

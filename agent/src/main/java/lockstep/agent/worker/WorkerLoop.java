package lockstep.agent.worker;

import lockstep.agent.v1.WorkloadResult;

/**
 * The work one worker process does: set up at construction, run at an instant; the process exiting
 * drops its locks and files.
 */
public interface WorkerLoop {
  /** Cumulative counted operations, as the counter holds them. */
  long ops();

  /**
   * From now on the loop counts into {@code counter} (the one the agent reads); set after {@link
   * #warmUp}, before {@link #run}.
   */
  void countInto(ProgressCounter counter);

  /** Asks {@link #run} to return as soon as it can. */
  void stop();

  /**
   * Exercises the measured path on scratch that is not counted and is removed again, before the
   * worker reports ready; throws {@link lockstep.agent.fs.PosixException} if the path fails.
   */
  default void warmUp() {}

  /**
   * Waits for the instant, works, and returns its figures (never throws for file-system errors).
   */
  WorkloadResult run(long startAtUnixNanos);
}

package lockstep.agent.worker;

import java.util.function.BooleanSupplier;

/**
 * A worker loop that counts its operations in a {@link ProgressCounter}, read by the agent, and
 * ends when {@link #stop} sets its flag.
 */
abstract class CountingLoop implements WorkerLoop {
  /** Set by one thread (or added to by the loop's threads together). */
  protected ProgressCounter progress = ProgressCounter.local();

  protected volatile boolean stopped;

  // One instance for the whole run: the lock loop asks it on every try-lock attempt.
  protected final BooleanSupplier isStopped = () -> stopped;

  @Override
  public long ops() {
    return progress.get();
  }

  @Override
  public void countInto(ProgressCounter counter) {
    progress = counter;
  }

  @Override
  public void stop() {
    stopped = true;
  }
}

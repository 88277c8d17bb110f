package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.Posix;

/**
 * A worker loop that takes locks on files beneath the agent's root, counts its operations in a
 * {@link ProgressCounter}, read by the agent, and ends when {@link #stop} sets its flag.
 */
abstract class CountingLoop implements WorkerLoop {
  protected final Posix posix = Posix.get();
  protected final Locks locks = Locks.get();

  /** The root that error paths are reported relative to. */
  protected final Path root;

  /**
   * Whether operations are timed into the latency histogram (what else it covers is the loop's).
   */
  protected final boolean instrumented;

  /** Set by one thread (or added to by the loop's threads together). */
  protected ProgressCounter progress = ProgressCounter.local();

  protected volatile boolean stopped;

  // One instance for the whole run: the lock loop asks it on every try-lock attempt.
  protected final BooleanSupplier isStopped = () -> stopped;

  protected CountingLoop(Path root, boolean instrumented) {
    this.root = root;
    this.instrumented = instrumented;
  }

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

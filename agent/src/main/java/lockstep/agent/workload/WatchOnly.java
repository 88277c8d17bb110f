package lockstep.agent.workload;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.WallClock;

/**
 * A watch-only run's stand-in for a workload: no files, no processes, no operations. It lasts until
 * {@link #finish} (the workload's nodes have ended), so that the run's resource samples
 * (RunTelemetry, from the start instant) cover the step on a node that only serves the file system.
 */
public final class WatchOnly implements Workload {
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean aborted;

  @Override
  public String opName() {
    return "watch";
  }

  @Override
  public void prepare() {}

  @Override
  public List<String> paths() {
    return List.of();
  }

  @Override
  public long opsSoFar() {
    return 0;
  }

  /** The step's workload has ended on its nodes: {@link #run} returns, the run succeeded. */
  public void finish() {
    ended.countDown();
  }

  /**
   * Waits for {@link #finish} (or an abort). The instant needs no waiting of its own: the run's
   * telemetry samples from it whatever this thread does.
   */
  @Override
  public WorkloadResult.Builder run(long startAtUnixNanos) {
    try {
      ended.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      aborted = true;
    }
    return WorkloadResult.newBuilder()
        .setOpName(opName())
        .setStartedUnixNanos(startAtUnixNanos)
        .setEndUnixNanos(WallClock.nowNanos())
        .setState(aborted ? RunState.RUN_STATE_ABORTED : RunState.RUN_STATE_SUCCEEDED);
  }

  @Override
  public void abort() {
    aborted = true;
    ended.countDown();
  }

  @Override
  public CleanupReport cleanup() {
    return new CleanupReport(0, List.of());
  }
}

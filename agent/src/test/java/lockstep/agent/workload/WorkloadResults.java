package lockstep.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.WallClock;

/** Running a workload once in a test, and the checks its result most often gets. */
final class WorkloadResults {
  private WorkloadResults() {}

  /** Prepares the workload and runs it from {@code leadNanos} from now; the caller cleans up. */
  static WorkloadResult prepareAndRun(Workload w, long leadNanos) {
    w.prepare();
    return w.run(WallClock.nowNanos() + leadNanos).build();
  }

  /** Prepares, runs from {@code leadNanos} from now and cleans up, even when a step throws. */
  static WorkloadResult runOnce(Workload w, long leadNanos) {
    return runOnceTimed(w, leadNanos).result();
  }

  /** A run's result and the instant it was told to start at. */
  record Ran(long start, WorkloadResult result) {}

  /** As {@link #runOnce}, keeping the instant the run was told to start at (once prepared). */
  static Ran runOnceTimed(Workload w, long leadNanos) {
    try {
      w.prepare();
      long start = WallClock.nowNanos() + leadNanos;
      return new Ran(start, w.run(start).build());
    } finally {
      w.cleanup();
    }
  }

  /** The run failed on a call that returned {@code errno} for {@code path} (under the root). */
  static void assertFailedOn(WorkloadResult r, String errno, String path) {
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_FAILED);
    assertThat(r.getError().getErrnoName()).isEqualTo(errno);
    assertThat(r.getError().getPath()).isEqualTo(path);
  }
}

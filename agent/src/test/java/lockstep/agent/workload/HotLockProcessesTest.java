package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.runOnce;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotLockProcessesTest {
  @TempDir Path root;

  private static HotLockWorkload.Builder spec() {
    return HotLockWorkload.newBuilder()
        .setFile("hot.dat")
        .setProcesses(2)
        .setThreads(2)
        .setLock(LockKind.LOCK_KIND_OFD)
        .setDurationMillis(300);
  }

  @Test
  void processesAndThreadsAllAcquireTheOneLock() {
    HotLockProcesses w = new HotLockProcesses(spec().build(), new RootedPaths(root, "n1"));
    try {
      w.prepare();
      long start = WallClock.nowNanos() + 100_000_000;
      WorkloadResult r = w.run(start).build();
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getProcessesList())
          .hasSize(2)
          .allSatisfy(p -> assertThat(p.getOps()).isPositive());
      assertThat(r.getOps())
          .isEqualTo(r.getProcessesList().stream().mapToLong(p -> p.getOps()).sum());
      assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount())
          .isEqualTo(r.getOps());
      assertThat(r.getEndUnixNanos()).isLessThanOrEqualTo(start + 300_000_000L + 50_000_000L);
      // every thread waited for the instant itself: the first attempt began at it
      assertThat(r.getStartedUnixNanos())
          .isGreaterThanOrEqualTo(start)
          .isLessThanOrEqualTo(r.getFirstOpUnixNanos());
    } finally {
      w.cleanup();
    }
    assertThat(root.resolve("hot.dat")).doesNotExist();
  }

  @Test
  void tryLockCountsTheAttemptsThatFoundTheLockHeld() {
    HotLockProcesses w =
        new HotLockProcesses(
            spec()
                .setLock(LockKind.LOCK_KIND_FLOCK)
                .setThreads(1)
                .setTryLock(true)
                .setHoldMicros(2000)
                .build(),
            new RootedPaths(root, "n1"));
    WorkloadResult r = runOnce(w, 100_000_000);
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.getOps()).isPositive();
    assertThat(r.getLockRetries()).as("two processes, each holding 2 ms").isPositive();
  }
}

package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.runOnce;
import static lockstep.agent.workload.WorkloadResults.runOnceTimed;
import static org.assertj.core.api.Assertions.assertThat;

import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.workload.WorkloadResults.Ran;
import lockstep.common.LatencyHistograms;
import org.junit.jupiter.api.Test;

class HotLockProcessesTest extends TempRootTest {
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
    Ran ran = runOnceTimed(new HotLockProcesses(spec().build(), paths()), 100_000_000);
    assertThat(root.resolve("hot.dat")).as("removed at cleanup").doesNotExist();
    long start = ran.start();
    WorkloadResult r = ran.result();
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
            paths());
    WorkloadResult r = runOnce(w, 100_000_000);
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.getOps()).isPositive();
    assertThat(r.getLockRetries()).as("two processes, each holding 2 ms").isPositive();
  }
}

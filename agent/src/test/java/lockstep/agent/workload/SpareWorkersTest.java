package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.runOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.agent.process.SpareWorkers;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Spare workers: after a step the agent starts as many worker JVMs again, which load and wait; the
 * next step's workers are those processes (each still used for one step only), and none outlives
 * the agent's pool.
 */
class SpareWorkersTest extends TempRootTest {
  private static HotLockWorkload spec() {
    return HotLockWorkload.newBuilder()
        .setFile("hot.dat")
        .setProcesses(2)
        .setThreads(1)
        .setLock(LockKind.LOCK_KIND_FLOCK)
        .setDurationMillis(200)
        .build();
  }

  @AfterEach
  void noSpares() {
    SpareWorkers.keep(0);
  }

  @Test
  void theNextStepsWorkersAreTheSparesTheLastStepLeftAndClosingEndsThem() throws Exception {
    SpareWorkers.keep(2);
    WorkloadResult first = runOnce(new HotLockProcesses(spec(), paths()), 100_000_000);
    assertThat(first.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    List<Long> spares = SpareWorkers.get().pids();
    assertThat(spares).as("spares started after the step").hasSize(2);
    assertThat(first.getProcessesList())
        .extracting(p -> p.getPid())
        .doesNotContainAnyElementsOf(spares);

    HotLockProcesses second = new HotLockProcesses(spec(), paths());
    try {
      second.prepare();
      assertThat(second.fleet.pids())
          .as("the step's workers")
          .containsExactlyInAnyOrderElementsOf(spares);
      WorkloadResult r = second.run(lockstep.common.WallClock.nowNanos() + 100_000_000L).build();
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getProcessesList()).allSatisfy(p -> assertThat(p.getOps()).isPositive());
    } finally {
      second.cleanup();
    }
    List<Long> next = SpareWorkers.get().pids();
    assertThat(next).hasSize(2).doesNotContainAnyElementsOf(spares);
    for (long pid : spares) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
          .as("used once, then gone")
          .isEmpty();
    }

    SpareWorkers.keep(0);
    for (long pid : next) {
      ProcessHandle.of(pid)
          .ifPresent(
              h -> {
                try {
                  h.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                  throw new AssertionError("spare " + pid + " still runs after the pool closed", e);
                }
              });
    }
    assertThat(SpareWorkers.get().pids()).isEmpty();
  }

  @Test
  void withoutSparesNoWorkerIsLeftAfterAStep() {
    runOnce(new HotLockProcesses(spec(), paths()), 100_000_000);
    assertThat(SpareWorkers.get().pids()).isEmpty();
  }

  @Test
  void thePoolsSizeIsBounded() {
    assertThatThrownBy(() -> SpareWorkers.keep(65))
        .hasMessage("--spare-workers: 65 is outside 0..64");
    assertThatThrownBy(() -> SpareWorkers.keep(-1))
        .hasMessage("--spare-workers: -1 is outside 0..64");
  }
}

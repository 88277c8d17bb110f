package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.Workload;
import lockstep.common.WallClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A run's states as they are stored, moved by its instant, its workload, aborts and cleanup. */
class RunTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final HeldWorkload workload = new HeldWorkload();
  private final AtomicInteger cleanedUp = new AtomicInteger();
  private final Run run =
      new Run(
          new Run.Prepared(
              "r1",
              "n1",
              WorkloadSpec.newBuilder()
                  .setWrite(WriteWorkload.newBuilder().setFile("f").setSizeBytes(4096))
                  .build(),
              workload,
              60_000,
              "owner:alice",
              "127.0.0.1:1",
              System.currentTimeMillis(),
              null),
          timer,
          r -> cleanedUp.incrementAndGet());

  @AfterEach
  void stop() {
    workload.done.countDown();
    timer.shutdownNow();
  }

  @Test
  void anArmedRunIsStoredAsRunningFromItsInstantAndEndsWithItsWorkload() {
    long instant = WallClock.nowNanos() + 300_000_000L;
    assertThat(run.arm(instant)).isEqualTo(RunState.RUN_STATE_ARMED);
    assertThat(run.arm(instant)).as("the same instant again").isEqualTo(RunState.RUN_STATE_ARMED);
    assertThatThrownBy(() -> run.arm(instant + 1))
        .isInstanceOf(RunException.IllegalTransition.class)
        .hasMessage("run r1 is already RUN_STATE_ARMED for another start instant");
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_RUNNING);
    assertThat(WallClock.nowNanos()).isGreaterThanOrEqualTo(instant);
    assertThat(run.result().getState()).isEqualTo(RunState.RUN_STATE_RUNNING);

    workload.done.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_SUCCEEDED);
    assertThat(run.result().getIntendedStartUnixNanos()).isEqualTo(instant);
    assertThat(run.abort("too late")).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(run.abortReason()).isNull();
  }

  @Test
  void aPreparedRunAbortedEndsAtOnceAndCannotBeStarted() {
    assertThat(run.abort("")).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(run.result().getError().getMessage()).isEqualTo("requested by coordinator");
    assertThatThrownBy(() -> run.arm(WallClock.nowNanos()))
        .isInstanceOf(RunException.IllegalTransition.class);
    assertThatThrownBy(() -> run.arm(0)).isInstanceOf(RunException.Invalid.class);
  }

  @Test
  void aRunningRunAbortedEndsAbortedWithTheReasonWhenItsWorkloadReturns() {
    run.arm(WallClock.nowNanos());
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_RUNNING);
    assertThat(run.abort("by its owner"))
        .as("it ends when its workload returns")
        .isIn(RunState.RUN_STATE_RUNNING, RunState.RUN_STATE_ABORTED);
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_ABORTED);
    WorkloadResult r = run.result();
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(r.getError().getMessage()).isEqualTo("by its owner");
  }

  @Test
  void aLeaseCleanupHappensOnceOnItsExecutorAndLaterCallsGetItsReport() throws Exception {
    run.arm(WallClock.nowNanos());
    var executor = Executors.newSingleThreadExecutor();
    try {
      var report = run.cleanup("lease ran out", false, executor);
      assertThat(run.leaseExpiry(Long.MAX_VALUE)).as("a run being cleaned has no lease").isNull();
      assertThat(report.get(10, TimeUnit.SECONDS).filesRemoved()).isEqualTo(1);
      assertThat(run.cleanupOnRequest("again")).isSameAs(report.get());
      assertThat(run.cleanedOnRequest()).isFalse();
      assertThat(run.cleanedAtMillis()).isPositive();
      assertThat(run.state()).isEqualTo(RunState.RUN_STATE_ABORTED);
      assertThat(run.abortReason()).isEqualTo("lease ran out");
      assertThat(cleanedUp).hasValue(1);
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void onlyItsOwnerMayTouchARun() {
    run.checkOwner("owner:alice", "start");
    assertThatThrownBy(() -> run.checkOwner("cert:CN=bob", "start"))
        .isInstanceOf(RunException.NotOwner.class)
        .hasMessageStartingWith("start of run r1 on node n1 refused: the run belongs to owner:")
        .hasMessageEndingWith(", who prepared it; this call comes from cert:CN=bob")
        .hasMessageNotContaining("alice");
  }

  /** A workload that works from its instant until the test or an abort ends it. */
  private static final class HeldWorkload implements Workload {
    final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean aborted;

    @Override
    public String opName() {
      return "op";
    }

    @Override
    public void prepare() {}

    @Override
    public List<String> paths() {
      return List.of("f");
    }

    @Override
    public long opsSoFar() {
      return 1;
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
      try {
        done.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return WorkloadResult.newBuilder()
          .setOps(1)
          .setState(aborted ? RunState.RUN_STATE_ABORTED : RunState.RUN_STATE_SUCCEEDED);
    }

    @Override
    public void abort() {
      aborted = true;
      done.countDown();
    }

    @Override
    public CleanupReport cleanup() {
      return new CleanupReport(1, List.of());
    }
  }
}

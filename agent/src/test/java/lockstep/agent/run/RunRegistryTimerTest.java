package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.Workload;
import lockstep.common.WallClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run asks of its registry's one timer, by state: nothing for an agent without runs, one
 * lease check for a prepared or ended run, samples only while it runs, one kept result's end after
 * a lease cleanup, nothing once a Cleanup call forgot it. An idle agent's timer never wakes.
 */
class RunRegistryTimerTest {
  private static final String OWNER = "owner:alice";
  private static final String PEER = "127.0.0.1:1";

  @TempDir Path root;
  private final CountDownLatch done = new CountDownLatch(1);
  private RunRegistry registry;

  @BeforeEach
  void start() {
    registry =
        new RunRegistry(
            new AgentConfig("n1", root, "", 0), (spec, paths, nodes, by) -> new Held(done));
  }

  @AfterEach
  void stop() {
    done.countDown();
    registry.close();
  }

  private Run prepare(String runId, long leaseMillis) {
    return registry.prepare(
        PrepareRequest.newBuilder()
            .setRunId(runId)
            .setLeaseMillis(leaseMillis)
            .setWorkload(
                WorkloadSpec.newBuilder()
                    .setWrite(WriteWorkload.newBuilder().setFile("f").setSizeBytes(4096)))
            .build(),
        PEER,
        OWNER,
        CallDeadline.NONE);
  }

  @Test
  void aRunIsSampledOnlyWhileItRunsAndAnIdleRegistryHasNothingOnItsTimer() {
    assertThat(registry.timerTasks()).as("no run: nothing to wake for").isZero();

    Run run = prepare("r1", 60_000);
    assertThat(run.leaseWatched()).isTrue();
    assertThat(run.sampling()).isFalse();
    assertThat(registry.timerTasks()).as("its lease check").isEqualTo(1);

    run.arm(WallClock.nowNanos() + 50_000_000L);
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_RUNNING);
    assertThat(run.sampling()).isTrue();
    assertThat(registry.timerTasks()).as("lease check and samples").isEqualTo(2);

    done.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> run.state() == RunState.RUN_STATE_SUCCEEDED);
    assertThat(run.sampling()).as("a final run's series is final").isFalse();
    assertThat(run.result().getSeriesList()).isNotEmpty();
    assertThat(registry.timerTasks()).as("only its lease, until it is cleaned").isEqualTo(1);

    registry.cleanup("r1", OWNER);
    assertThat(run.leaseWatched()).isFalse();
    assertThat(registry.list()).isEmpty();
    assertThat(registry.timerTasks()).as("forgotten: nothing left").isZero();
  }

  @Test
  void aLeaseIsCheckedWhenDueAndARunItEndedKeepsOnlyItsResultsEnd() {
    Run run = prepare("r2", 200);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> run.cleanedAtMillis() > 0 && registry.timerTasks() == 1);
    assertThat(run.state()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(run.abortReason()).contains("lease ran out");
    assertThat(run.leaseWatched()).isFalse();
    assertThat(registry.list()).containsExactly(run); // kept for collect, as before

    registry.cleanup("r2", OWNER);
    assertThat(registry.list()).isEmpty();
    assertThat(registry.timerTasks()).as("its kept result's end cancelled").isZero();
  }

  @Test
  void aClosedConnectionBringsTheLeaseCheckForward() {
    Run run = prepare("r3", 600_000);
    long gone = System.currentTimeMillis();
    registry.peerGone(PEER);
    await().atMost(Duration.ofSeconds(20)).until(() -> run.cleanedAtMillis() > 0);
    assertThat(run.abortReason()).contains("closed and no call came");
    assertThat(run.cleanedAtMillis() - gone)
        .as("at the grace, not at the lease of 10 min")
        .isBetween(Leases.PEER_GONE_GRACE_MILLIS, 15_000L);
  }

  /** A workload that works from its instant until the test (or an abort) ends it. */
  private static final class Held implements Workload {
    private final CountDownLatch done;
    private volatile boolean aborted;

    Held(CountDownLatch done) {
      this.done = done;
    }

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

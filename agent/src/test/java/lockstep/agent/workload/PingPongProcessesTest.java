package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.runOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real worker processes in one ring on a local file: the data-increment check must hold. */
class PingPongProcessesTest extends TempRootTest {
  private static PingPongWorkload.Builder spec() {
    return PingPongWorkload.newBuilder()
        .setFile("pp.dat")
        .setProcesses(2)
        .setLock(LockKind.LOCK_KIND_FCNTL)
        .setIo(PingPongIo.PING_PONG_IO_READ_WRITE)
        .setDurationMillis(400)
        .setWarmupMillis(150);
  }

  @ParameterizedTest
  @EnumSource(
      value = LockKind.class,
      names = {"LOCK_KIND_FCNTL", "LOCK_KIND_OFD"})
  void twoProcessesPingPongCoherentlyOnALocalFile(LockKind kind) {
    PingPongProcesses w = new PingPongProcesses(spec().setLock(kind).build(), paths(), 1);
    assertThat(w.participants()).isEqualTo(2);
    assertThat(w.slots()).isEqualTo(3);
    try {
      w.prepare();
      assertThat(w.workerPids()).hasSize(2);
      long start = WallClock.nowNanos() + 100_000_000;
      WorkloadResult r = w.run(start).build();
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getOps()).isPositive().isEven();
      assertThat(r.getProcessesList())
          .hasSize(2)
          .allSatisfy(p -> assertThat(p.getOps()).isPositive());
      assertThat(r.getCoherenceChecks()).isPositive();
      assertThat(r.getCoherenceErrors()).isZero();
      assertThat(r.getFirstOpUnixNanos()).isGreaterThanOrEqualTo(start + 150_000_000L);
      assertThat(r.getEndUnixNanos()).isLessThanOrEqualTo(start + 550_000_000L);
      assertThat(r.getMeasureDelayNanos()).isEqualTo(150_000_000L);
      // the warm-up ring began at the instant: that, not the measured window, is the start skew
      assertThat(r.getStartedUnixNanos())
          .isGreaterThanOrEqualTo(start)
          .isLessThan(start + 150_000_000L)
          .isLessThan(r.getFirstOpUnixNanos());
      assertThat(r.getProcessesList())
          .allSatisfy(
              p -> assertThat(p.getStartedUnixNanos()).isBetween(start, start + 150_000_000L));
      assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount())
          .isEqualTo(r.getOps());
    } finally {
      w.cleanup();
    }
    assertThat(root.resolve("pp.dat")).doesNotExist();
  }

  @Test
  void withoutIoThereIsNothingToCheck() {
    PingPongProcesses w =
        new PingPongProcesses(
            spec().setProcesses(1).setIo(PingPongIo.PING_PONG_IO_NONE).build(), paths(), 1);
    WorkloadResult r = runOnce(w, 50_000_000);
    assertThat(r.getOps()).isPositive();
    assertThat(r.getCoherenceChecks()).isZero();
  }

  @Test
  void withInstrumentationOffWorkersCountButRecordNoLatencyAndSendNoProgress()
      throws InterruptedException {
    Workload w =
        WorkloadFactory.create(
            WorkloadSpec.newBuilder()
                .setPingPong(spec().setProcesses(1).setIo(PingPongIo.PING_PONG_IO_NONE))
                .setInstrumentationOff(true)
                .build(),
            paths(),
            1,
            CallDeadline.NONE);
    try {
      w.prepare();
      // what the agent's progress sampler would see while the run goes (an instrumented worker
      // keeps its count in a counter the agent maps)
      AtomicLong seenWhileRunning = new AtomicLong();
      long start = WallClock.nowNanos() + 50_000_000;
      Thread sampler =
          new Thread(
              () -> {
                while (WallClock.nowNanos() < start + 500_000_000L) {
                  seenWhileRunning.accumulateAndGet(w.opsSoFar(), Math::max);
                  LockSupport.parkNanos(20_000_000);
                }
              });
      sampler.start();
      WorkloadResult r = w.run(start).build();
      sampler.join();
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getOps()).isPositive();
      assertThat(r.getFirstOpUnixNanos()).isPositive().isLessThan(r.getEndUnixNanos());
      assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount()).isZero();
      assertThat(seenWhileRunning.get()).as("no count from the worker while it runs").isZero();
    } finally {
      w.cleanup();
    }
  }

  @Test
  void theAgentReadsAnInstrumentedWorkersCountWhileItRunsAndNoCountFileIsLeft() throws Exception {
    Workload w =
        WorkloadFactory.create(
            WorkloadSpec.newBuilder()
                .setPingPong(spec().setProcesses(1).setIo(PingPongIo.PING_PONG_IO_NONE))
                .build(),
            paths(),
            1,
            CallDeadline.NONE);
    Set<Path> before = countFiles();
    try {
      w.prepare();
      assertThat(countFiles()).as("removed once the worker has it mapped").isEqualTo(before);
      AtomicLong seenWhileRunning = new AtomicLong();
      long start = WallClock.nowNanos() + 50_000_000;
      Thread sampler =
          new Thread(
              () -> {
                // inside the measured part (150 ms warm-up, 400 ms measured)
                LockSupport.parkNanos(start + 350_000_000L - WallClock.nowNanos());
                seenWhileRunning.set(w.opsSoFar());
              });
      sampler.start();
      WorkloadResult r = w.run(start).build();
      sampler.join();
      assertThat(seenWhileRunning.get()).isPositive().isLessThan(r.getOps());
      assertThat(w.opsSoFar()).as("the outcome's count once it is in").isEqualTo(r.getOps());
    } finally {
      w.cleanup();
    }
    assertThat(countFiles()).isEqualTo(before);
  }

  private static Set<Path> countFiles() throws IOException {
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      // this JVM's only: other builds and agents share the temporary directory
      String mine = "lockstep-count-" + ProcessHandle.current().pid() + "-";
      return all.filter(f -> f.getFileName().toString().startsWith(mine))
          .collect(Collectors.toSet());
    }
  }

  @Test
  void theRingNeedsMoreSlotsThanParticipantsOnAllNodes() {
    assertThatThrownBy(() -> new PingPongProcesses(spec().setSlots(4).build(), paths(), 2))
        .hasMessageContaining("workload.slots")
        .hasMessageContaining("4 participants (2 node(s) x 2 process(es))")
        .hasMessageContaining("at least 5");
    assertThat(new PingPongProcesses(spec().build(), paths(), 3).slots()).isEqualTo(7);
  }
}

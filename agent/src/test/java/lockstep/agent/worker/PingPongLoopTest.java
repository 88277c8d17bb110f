package lockstep.agent.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import lockstep.agent.fs.ScratchDir;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PingPongLoopTest {
  @TempDir Path root;

  private PingPongLoop loop() throws IOException {
    return loop(1);
  }

  private PingPongLoop loop(int participants) throws IOException {
    Path file = root.resolve("pp.dat");
    Files.write(file, new byte[] {7, 7, 7, 7});
    PingPongWorkload spec =
        PingPongWorkload.newBuilder()
            .setFile("pp.dat")
            .setProcesses(1)
            .setLock(LockKind.LOCK_KIND_FCNTL)
            .setIo(PingPongIo.PING_PONG_IO_READ_WRITE)
            .setDurationMillis(200)
            .setWarmupMillis(50)
            .build();
    return new PingPongLoop(file, spec, 3, participants, root, true);
  }

  /**
   * The ring broken on purpose: the loop counts on a second participant that never joins, as a node
   * whose locks are its own (o2cb's fcntl) never truly joins the others' ring. Each byte then comes
   * back with this loop's own increment of 1, not the 2 a whole ring gives: every check the window
   * holds is an error, and the worker says so in its result.
   */
  @Test
  void aRingMissingAParticipantCountsEveryCheckAsACoherenceError() throws IOException {
    WorkloadResult run = loop(2).run(WallClock.nowNanos() + 10_000_000L);
    assertThat(run.hasError()).isFalse();
    assertThat(run.getCoherenceChecks()).isPositive();
    assertThat(run.getCoherenceErrors()).isEqualTo(run.getCoherenceChecks());
  }

  /**
   * A try-lock ring whose neighbour never lets go (its node died holding the byte, as an NFSv3
   * client's locks stand until it comes back): the loop gives up at the run's end, as a turning
   * ring does, instead of trying until it is aborted.
   */
  @Test
  void aTryLockRingWhoseNeighbourNeverLetsGoEndsAtTheRunsEnd() throws Exception {
    Path file = root.resolve("pp.dat");
    Files.write(file, new byte[] {0, 0, 0, 0});
    // another process holds byte 1, the ring's next slot, for longer than the test
    Process holder =
        new ProcessBuilder(
                "python3",
                "-c",
                "import fcntl, os, time; fd = os.open('"
                    + file
                    + "', os.O_RDWR); fcntl.lockf(fd, fcntl.LOCK_EX, 1, 1); print('held',"
                    + " flush=True); time.sleep(60)")
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(new String(holder.getInputStream().readNBytes(4))).isEqualTo("held");
      PingPongWorkload spec =
          PingPongWorkload.newBuilder()
              .setFile("pp.dat")
              .setProcesses(1)
              .setLock(LockKind.LOCK_KIND_FCNTL)
              .setTryLock(true)
              .setDurationMillis(200)
              .setWarmupMillis(50)
              .build();
      PingPongLoop loop = new PingPongLoop(file, spec, 3, 2, root, true);
      long began = System.nanoTime();
      WorkloadResult run =
          assertTimeoutPreemptively(
              Duration.ofSeconds(20), () -> loop.run(WallClock.nowNanos() + 10_000_000L));
      assertThat((System.nanoTime() - began) / 1e9)
          .as("ended at the run's end (warm-up, 200 ms, warm-up), not at the timeout")
          .isLessThan(5);
      assertThat(run.hasError()).isFalse();
      assertThat(run.getOps()).isZero();
    } finally {
      holder.destroyForcibly().waitFor();
    }
  }

  @Test
  void theWarmUpRunsTheRingOnScratchOfItsOwnAndLeavesTheMeasuredFileAndCountAlone()
      throws IOException {
    PingPongLoop loop = loop();
    List<Path> before = scratchDirs();
    loop.warmUp();
    assertThat(loop.warmUpIterations()).isBetween(1L, PingPongLoop.WARM_UP_ITERATIONS);
    assertThat(loop.ops()).isZero();
    assertThat(Files.readAllBytes(root.resolve("pp.dat"))).containsExactly(7, 7, 7, 7);
    assertThat(scratchDirs()).isEqualTo(before);
    WorkloadResult run = loop.run(WallClock.nowNanos() + 10_000_000L);
    assertThat(run.hasError()).isFalse();
    assertThat(run.getOps()).isPositive();
    // the run wrote the measured file: each visit read back its own last write plus one (a byte
    // can come back to 7 after a multiple of 256 visits, so the bytes alone do not tell)
    assertThat(run.getCoherenceChecks()).isPositive();
    assertThat(run.getCoherenceErrors()).isZero();
  }

  private static List<Path> scratchDirs() throws IOException {
    try (Stream<Path> s = Files.list(ScratchDir.TMPFS)) {
      return s.filter(p -> p.getFileName().toString().startsWith("lockstep-warmup-ping-pong"))
          .sorted()
          .toList();
    }
  }
}

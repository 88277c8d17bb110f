package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import lockstep.common.WallClock;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.Test;

/** The thread is SCHED_FIFO while it sleeps to the instant, and normal again before it returns. */
class RealtimeWakeTest {
  private final Posix posix = Posix.get();

  @Test
  void sleepsAsARealTimeThreadAndWakesAsANormalOne() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    RealtimeWake wake = new RealtimeWake(posix, true);
    assertThat(wake.describe()).isEqualTo("SCHED_FIFO 1 while asleep");
    AtomicReference<Path> task = new AtomicReference<>();
    long at = WallClock.nowNanos() + 400_000_000L;
    CompletableFuture<int[]> slept =
        CompletableFuture.supplyAsync(
            () -> {
              task.set(threadSelf());
              boolean raised = wake.sleepUntil(at);
              return new int[] {raised ? 1 : 0, posix.libc().sched_getscheduler(0)};
            });
    String policyWhileAsleep = "";
    while (WallClock.nowNanos() < at - 100_000_000L) {
      Path t = task.get();
      if (t != null) {
        policyWhileAsleep = policy(t);
      }
      Thread.sleep(10);
    }
    int[] after = slept.get(5, TimeUnit.SECONDS);
    assertThat(WallClock.nowNanos()).isGreaterThanOrEqualTo(at);
    assertThat(policyWhileAsleep).isEqualTo("1"); // SCHED_FIFO
    assertThat(after[0]).isEqualTo(1);
    assertThat(after[1]).isEqualTo(RealtimeWake.SCHED_OTHER);
  }

  @Test
  void switchedOffItSleepsAsANormalThreadAndSaysWhy() {
    RealtimeWake wake = new RealtimeWake(posix, false);
    assertThat(wake.sleepUntil(WallClock.nowNanos() + 1_000_000L)).isFalse();
    assertThat(posix.libc().sched_getscheduler(0)).isEqualTo(RealtimeWake.SCHED_OTHER);
    assertThat(wake.describe()).isEqualTo("SCHED_OTHER (LOCKSTEP_REALTIME_WAKE=off)");
  }

  @Test
  void theSwitchTakesOnOrOffAndNamesAnythingElse() {
    assertThat(RealtimeWake.switchError(null)).isNull();
    assertThat(RealtimeWake.switchError("off")).isNull();
    assertThat(RealtimeWake.switchError("ON")).isNull();
    assertThat(RealtimeWake.switchError("false"))
        .isEqualTo("LOCKSTEP_REALTIME_WAKE='false' in the agent's environment: must be on or off");
  }

  private static Path threadSelf() {
    try {
      return Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self")));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The scheduling policy of a task, from its /proc/PID/task/TID/stat (field 41). */
  private static String policy(Path task) throws Exception {
    String stat = Files.readString(task.resolve("stat"));
    String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return after[41 - 3];
  }
}

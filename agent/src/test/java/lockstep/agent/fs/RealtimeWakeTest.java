package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import lockstep.common.WallClock;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.Test;

/**
 * The thread is SCHED_FIFO while it sleeps to the instant, and normal again before it returns or,
 * left raised for a first operation, once lowered; never lowered where another raise made it so.
 */
class RealtimeWakeTest {
  private final Posix posix = Posix.get();

  @Test
  void sleepsAsARealTimeThreadAndWakesAsANormalOne() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    RealtimeWake wake = new RealtimeWake(posix, true);
    assertThat(wake.describe()).isEqualTo("SCHED_FIFO 1 asleep and for the first operation");
    AtomicReference<Path> task = new AtomicReference<>();
    long at = WallClock.nowNanos() + 400_000_000L;
    CompletableFuture<int[]> slept =
        CompletableFuture.supplyAsync(
            () -> {
              task.set(threadSelf());
              boolean raised = wake.sleepUntil(at);
              return new int[] {
                raised ? 1 : 0, RealtimeWake.policy(posix.libc().sched_getscheduler(0))
              };
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
  void aThreadLeftRaisedAfterItsWakeIsNormalOnceLowered() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    RealtimeWake wake = new RealtimeWake(posix, true);
    int[] policies =
        onItsOwnThread(
            () -> {
              boolean raised = wake.sleepUntilStayingRaised(WallClock.nowNanos() + 5_000_000L);
              int afterWake = policy();
              wake.lower();
              int afterLower = policy();
              wake.lower();
              return new int[] {raised ? 1 : 0, afterWake, afterLower};
            });
    assertThat(policies).containsExactly(1, RealtimeWake.SCHED_FIFO, RealtimeWake.SCHED_OTHER);
  }

  @Test
  void lowerLeavesAThreadItDidNotRaiseAsItIs() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    RealtimeWake wake = new RealtimeWake(posix, true);
    RealtimeWake other = new RealtimeWake(posix, true);
    int[] policies =
        onItsOwnThread(
            () -> {
              other.sleepUntilStayingRaised(0); // real-time by someone else's raise
              boolean raised = wake.sleepUntilStayingRaised(0);
              wake.lower();
              int afterLower = policy();
              other.lower();
              return new int[] {raised ? 1 : 0, afterLower, policy()};
            });
    assertThat(policies).containsExactly(0, RealtimeWake.SCHED_FIFO, RealtimeWake.SCHED_OTHER);
  }

  /** The calling thread's policy, without the reset-on-fork flag. */
  private int policy() {
    return posix.libc().sched_getscheduler(0) & ~RealtimeWake.SCHED_RESET_ON_FORK;
  }

  /**
   * {@code body} on a pool thread, so a failure leaves no real-time thread behind in the test's.
   */
  private static int[] onItsOwnThread(Supplier<int[]> body) throws Exception {
    return CompletableFuture.supplyAsync(body).get(5, TimeUnit.SECONDS);
  }

  @Test
  void switchedOffItSleepsAsANormalThreadAndSaysWhy() {
    RealtimeWake wake = new RealtimeWake(posix, false);
    assertThat(wake.sleepUntil(WallClock.nowNanos() + 1_000_000L)).isFalse();
    assertThat(RealtimeWake.policy(posix.libc().sched_getscheduler(0)))
        .isEqualTo(RealtimeWake.SCHED_OTHER);
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

package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import lockstep.common.WallClock;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.Test;

/**
 * The wake as the agent gets it under its systemd unit (an unprivileged user with LimitRTPRIO=1, no
 * capabilities): a thread it raised must come back to SCHED_OTHER. Without CAP_SYS_NICE the kernel
 * refuses to clear the reset-on-fork flag the raise set, so a lowering that tried to left every
 * woken thread real-time for good (seen in the lab's guests). Capabilities belong to a thread: the
 * test's own thread gives up CAP_SYS_NICE after its raise and ends with the test.
 */
class RealtimeWakeUnprivilegedTest {
  private static final int CAP_SYS_NICE = 23;
  private static final int LINUX_CAPABILITY_VERSION_3 = 0x20080522;

  /** capget(2)/capset(2) on the calling thread (pid 0 in the header). */
  public interface Capabilities {
    int capget(Pointer header, Pointer data);

    int capset(Pointer header, Pointer data);
  }

  @Test
  void aThreadRaisedWhileItMayIsLoweredAfterLosingCapSysNice() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    Posix posix = Posix.get();
    Capabilities caps = LibraryLoader.create(Capabilities.class).load("c");
    RealtimeWake wake = new RealtimeWake(posix, true);
    String[] seen =
        CompletableFuture.supplyAsync(
                () -> {
                  boolean raised = wake.sleepUntilStayingRaised(WallClock.nowNanos() + 2_000_000L);
                  int whileRaised = policy(posix);
                  dropCapSysNice(posix, caps);
                  wake.lower();
                  return new String[] {
                    Boolean.toString(raised),
                    Integer.toString(whileRaised),
                    Integer.toString(policy(posix))
                  };
                },
                r -> new Thread(r, "unprivileged-wake").start())
            .get(10, TimeUnit.SECONDS);
    assertThat(seen).containsExactly("true", "1", "0");
  }

  private static int policy(Posix posix) {
    return RealtimeWake.policy(posix.libc().sched_getscheduler(0));
  }

  private static void dropCapSysNice(Posix posix, Capabilities caps) {
    Pointer header = Memory.allocateDirect(posix.runtime(), 8, true);
    header.putInt(0, LINUX_CAPABILITY_VERSION_3);
    header.putInt(4, 0);
    // two {effective, permitted, inheritable} words: capabilities 0-31, then 32-63
    Pointer data = Memory.allocateDirect(posix.runtime(), 24, true);
    assertThat(caps.capget(header, data)).isZero();
    data.putInt(0, data.getInt(0) & ~(1 << CAP_SYS_NICE));
    assertThat(caps.capset(header, data)).isZero();
  }
}

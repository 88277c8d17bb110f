package lockstep.agent.fs;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import lockstep.common.WallClock;

/** Waiting for an instant of the host's wall clock ({@link WallClock}), as a C program would. */
public final class WallClockWait {
  // The last stretch is one clock_nanosleep(TIMER_ABSTIME) to the instant; until then the
  // thread parks in slices so a cancellation is seen within CANCEL_CHECK_NANOS.
  private static final long FINAL_SLEEP_NANOS = 20_000_000;
  private static final long CANCEL_CHECK_NANOS = 20_000_000;

  // when the first wait for the latest instant began (a worker process waits for one instant)
  private static volatile long instant;
  private static volatile long firstEntered;

  private WallClockWait() {}

  /**
   * When this process's first wait for {@code unixNanos} began (wall clock), or 0 if none did: how
   * long before its instant a late worker was ready.
   */
  public static long entered(long unixNanos) {
    return instant == unixNanos ? firstEntered : 0;
  }

  /**
   * Returns once the wall clock reaches {@code unixNanos}. Parks until about 20 ms before, then
   * sleeps in the kernel until the instant itself ({@code clock_nanosleep} with {@code
   * TIMER_ABSTIME} on CLOCK_REALTIME), as a real-time thread where allowed ({@link RealtimeWake}):
   * no thread spins, so many waiting processes on few cores do not delay each other. Returns false
   * if {@code cancelled} became true first (checked at least every 20 ms before the last stretch).
   * On true the thread may still be real-time: the caller makes its first operation and then calls
   * {@link #firstOpDone()} (also on every way out before it).
   */
  public static boolean until(long unixNanos, BooleanSupplier cancelled) {
    synchronized (WallClockWait.class) {
      if (instant != unixNanos) {
        firstEntered = WallClock.nowNanos();
        instant = unixNanos;
      }
    }
    // an instant long past: loads and links the native calls before they matter
    RealtimeWake.get().sleepUntil(0);
    while (true) {
      if (cancelled.getAsBoolean()) {
        return false;
      }
      long remaining = unixNanos - WallClock.nowNanos();
      if (remaining <= 0) {
        return true;
      }
      if (remaining > FINAL_SLEEP_NANOS) {
        LockSupport.parkNanos(Math.min(remaining - FINAL_SLEEP_NANOS / 2, CANCEL_CHECK_NANOS));
      } else {
        RealtimeWake.get().sleepUntilStayingRaised(unixNanos);
        if (cancelled.getAsBoolean()) {
          firstOpDone();
          return false;
        }
        return true;
      }
    }
  }

  /**
   * After the first operation following {@link #until}: the thread back to its normal policy if the
   * wait left it real-time; nothing otherwise, so a second call costs a thread-local read.
   */
  public static void firstOpDone() {
    RealtimeWake.get().lower();
  }
}

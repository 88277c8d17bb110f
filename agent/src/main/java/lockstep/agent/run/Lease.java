package lockstep.agent.run;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One run's lease ({@link Leases}): renewed by every call about the run; it runs out after {@code
 * millis} without one, or {@link Leases#PEER_GONE_GRACE_MILLIS} after the connection the run was
 * prepared over closed with no call since.
 *
 * <p>Watched ({@link #watch}) by one check on the registry's timer, due when the lease would run
 * out if no call came meanwhile: a run renewed every second costs one wake-up per lease period, not
 * one per timer tick, and a run whose cleanup has begun none ({@link #stop}).
 */
final class Lease {
  private final long millis;
  private final String by;
  private volatile long lastCallMillis;
  private volatile long peerGoneAtMillis;

  // guarded by this: the one check pending on the timer, and what it reports to
  private ScheduledExecutorService timer;
  private Consumer<String> onExpiry;
  private ScheduledFuture<?> check;
  private boolean stopped;

  /**
   * @param by the peer address the run was prepared from
   * @param fromMillis when it was prepared: the lease runs from then
   */
  Lease(long millis, String by, long fromMillis) {
    this.millis = millis;
    this.by = by;
    this.lastCallMillis = fromMillis;
  }

  void renew() {
    lastCallMillis = System.currentTimeMillis();
  }

  /** The connection the run was prepared over closed now: the lease is checked again then. */
  void peerGone(long nowMillis) {
    peerGoneAtMillis = nowMillis;
    schedule(nowMillis);
  }

  /** Why the lease ran out by {@code nowMillis}, or null while it holds. */
  String expiry(long nowMillis) {
    long gone = peerGoneAtMillis;
    if (gone > 0 && lastCallMillis <= gone && nowMillis - gone > Leases.PEER_GONE_GRACE_MILLIS) {
      return "the connection of "
          + by
          + " closed and no call came within "
          + Leases.PEER_GONE_GRACE_MILLIS
          + " ms";
    }
    if (nowMillis - lastCallMillis > millis) {
      return "lease ran out: no call from the coordinator for " + millis + " ms";
    }
    return null;
  }

  /**
   * When the lease runs out if no call comes before (wall clock, ms): just after {@code millis}
   * from the last call, or just after the grace from a closed connection, whichever is first.
   */
  long dueMillis() {
    long last = lastCallMillis;
    long gone = peerGoneAtMillis;
    long due = last + millis + 1;
    if (gone > 0 && last <= gone) {
      due = Math.min(due, gone + Leases.PEER_GONE_GRACE_MILLIS + 1);
    }
    return due;
  }

  /**
   * Tells {@code onExpiry} (on {@code timer}'s thread) why, once, when the lease runs out; checked
   * only when it is due.
   */
  synchronized void watch(ScheduledExecutorService timer, Consumer<String> onExpiry) {
    this.timer = timer;
    this.onExpiry = onExpiry;
    schedule(System.currentTimeMillis());
  }

  /** No more checks: the run's cleanup has begun (or the registry is closing). */
  synchronized void stop() {
    stopped = true;
    if (check != null) {
      check.cancel(false);
      check = null;
    }
  }

  /** Whether a check of this lease is pending on the timer. */
  synchronized boolean watched() {
    return check != null;
  }

  /** The one pending check, moved to when the lease is due now. */
  private synchronized void schedule(long nowMillis) {
    if (timer == null || stopped) {
      return;
    }
    if (check != null) {
      check.cancel(false);
    }
    try {
      check =
          timer.schedule(this::check, Math.max(0, dueMillis() - nowMillis), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      check = null; // the registry is closing: it ends every run itself
    }
  }

  private void check() {
    long now = System.currentTimeMillis();
    String why = expiry(now);
    Consumer<String> report;
    synchronized (this) {
      if (stopped) {
        return;
      }
      if (why == null) {
        schedule(now); // renewed meanwhile: due later (and still one check pending)
        return;
      }
      stop();
      report = onExpiry;
    }
    report.accept(why);
  }
}

package lockstep.agent.fs;

import jnr.constants.platform.Errno;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;

/**
 * The last sleep before a start instant made as a real-time thread (SCHED_FIFO, priority 1) where
 * the process may, and the thread back to its normal policy before its first operation. Woken at
 * the instant, a real-time thread runs before every normal thread on its CPU: the agents' and the
 * coordinator's other threads, and the other agents' threads that woke first and are already at
 * work. With two agents on a 2-core host it took the median start skew from 1.09 to 0.135 ms, and
 * with sixteen from 14.8 to 11.3 ms (docs/performance.md). A workload's thread stays real-time
 * through its first operation ({@link #sleepUntilStayingRaised}, then {@link #lower()}): lowered
 * before it, a thread that woke together with another on the same CPU waited a whole time slice
 * (1.5-2.5 ms) for the other's run to give the CPU back, so its first operation was that late.
 * Real-time threads of one priority do not preempt each other, so each first operation runs to its
 * end and the thread lowers itself; none holds a CPU for longer than one operation, and none spins
 * (a try-lock steps down before its first retry, {@link Locks#acquire}). Where the process may not
 * (EPERM: no CAP_SYS_NICE and no RLIMIT_RTPRIO, or systemd's RestrictRealtime) or where {@code
 * LOCKSTEP_REALTIME_WAKE=off}, the sleep is a normal one; {@link #describe()} says which, for the
 * node's environment.
 */
public final class RealtimeWake {
  static final int SCHED_OTHER = 0;
  static final int SCHED_FIFO = 1;
  static final int SCHED_RESET_ON_FORK = 0x40000000;

  /** The agent's environment variable that turns it off ({@code off}); workers inherit it. */
  public static final String SWITCH = "LOCKSTEP_REALTIME_WAKE";

  private static final RealtimeWake INSTANCE =
      new RealtimeWake(Posix.get(), !"off".equalsIgnoreCase(System.getenv(SWITCH)));

  /**
   * What is wrong with a value of {@link #SWITCH} (unset, {@code on} or {@code off}), or null: the
   * agent refuses to start on it rather than read a typo as "on".
   */
  public static String switchError(String value) {
    if (value == null || value.equalsIgnoreCase("on") || value.equalsIgnoreCase("off")) {
      return null;
    }
    return SWITCH + "='" + value + "' in the agent's environment: must be on or off";
  }

  private final Posix posix;
  private final LibC libc;
  private final boolean enabled;
  // the two struct sched_param the calls pass, written once and only read by the kernel after
  private final Pointer fifo;
  private final Pointer normal;
  private final ThreadLocal<Boolean> raisedHere = ThreadLocal.withInitial(() -> Boolean.FALSE);

  RealtimeWake(Posix posix, boolean enabled) {
    this.posix = posix;
    this.libc = posix.libc();
    this.enabled = enabled;
    this.fifo = param(1);
    this.normal = param(0);
  }

  public static RealtimeWake get() {
    return INSTANCE;
  }

  /**
   * {@link Posix#sleepUntil} with the thread real-time while it sleeps, if it runs under the normal
   * policy and the process may raise it; returns whether it was.
   */
  public boolean sleepUntil(long unixNanos) {
    boolean raised = sleepUntilStayingRaised(unixNanos);
    if (raised) {
      lower();
    }
    return raised;
  }

  /**
   * {@link #sleepUntil}, but a thread it raised stays real-time after the wake until it calls
   * {@link #lower()}: for the first operation after an instant.
   */
  public boolean sleepUntilStayingRaised(long unixNanos) {
    boolean raised =
        enabled
            && policy(libc.sched_getscheduler(0)) == SCHED_OTHER
            && libc.sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, fifo) == 0;
    if (raised) {
      raisedHere.set(Boolean.TRUE);
    }
    try {
      posix.sleepUntil(unixNanos);
    } catch (RuntimeException | Error e) {
      lower();
      throw e;
    }
    return raised;
  }

  /** The calling thread back to the normal policy if this class raised it; otherwise nothing. */
  public void lower() {
    if (raisedHere.get()) {
      raisedHere.set(Boolean.FALSE);
      toNormal();
    }
  }

  /**
   * SCHED_OTHER, keeping the reset-on-fork flag the raise set: a thread without CAP_SYS_NICE (the
   * agent under its systemd unit: an unprivileged user with LimitRTPRIO=1) may not clear that flag,
   * and a call that tried would fail with EPERM and leave the thread real-time.
   */
  private boolean toNormal() {
    return libc.sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, normal) == 0;
  }

  /** A policy without the reset-on-fork flag. */
  static int policy(int policyAndFlags) {
    return policyAndFlags < 0 ? policyAndFlags : policyAndFlags & ~SCHED_RESET_ON_FORK;
  }

  /**
   * What a wait for an instant is on this node: {@code SCHED_FIFO 1 asleep and for the first
   * operation}, or the normal policy and why (a trial raise of the calling thread, lowered right
   * away).
   */
  public String describe() {
    if (!enabled) {
      return "SCHED_OTHER (" + SWITCH + "=off)";
    }
    int policy = policy(libc.sched_getscheduler(0));
    if (policy < 0) {
      return "unchanged (sched_getscheduler: " + lastError() + ")";
    }
    if (policy != SCHED_OTHER) {
      return "the thread's own policy " + policy + " (not SCHED_OTHER), unchanged";
    }
    if (libc.sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, fifo) != 0) {
      return "SCHED_OTHER (sched_setscheduler(SCHED_FIFO): " + lastError() + ")";
    }
    if (!toNormal()) {
      String why = lastError();
      return "the wake is unsafe here: a raised thread cannot lower itself (" + why + ")";
    }
    return "SCHED_FIFO 1 asleep and for the first operation";
  }

  private String lastError() {
    return Errno.valueOf(posix.runtime().getLastError()).name();
  }

  private Pointer param(int priority) {
    Pointer p = Memory.allocateDirect(posix.runtime(), 4, true);
    p.putInt(0, priority);
    return p;
  }
}

package lockstep.coordinator.run;

import java.time.Duration;

/**
 * How long an agent keeps a run without hearing from this coordinator (the lease), and how the
 * coordinator checks that every agent of a step is alive: a KeepAlive call every {@code
 * heartbeatMillis}, each bounded by {@code heartbeatDeadlineMillis}. A dead or frozen agent is
 * noticed within heartbeat + deadline (at most 6 s with the defaults).
 */
public record FaultBounds(long leaseMillis, long heartbeatMillis, long heartbeatDeadlineMillis) {
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);
  public static final Duration MIN_LEASE = Duration.ofSeconds(3);
  public static final Duration MAX_LEASE = Duration.ofMinutes(10);
  private static final long MAX_HEARTBEAT_MILLIS = 1_000;
  private static final long BASE_HEARTBEAT_DEADLINE_MILLIS = 5_000;

  /**
   * Heartbeat spacing per agent of a step: beyond 500 agents the interval grows (2 ms per agent, 2
   * s at 1,000), so the coordinator's KeepAlive calls stay a small, steady load.
   */
  static final long HEARTBEAT_MILLIS_PER_AGENT = 2;

  public static FaultBounds defaults() {
    return forLease(DEFAULT_LEASE);
  }

  /**
   * Heartbeat every min(1 s, lease / 3), each call bounded by min(max(5 s, lease / 3), lease -
   * heartbeat): a lease longer than 15 s, chosen for slow nodes, also waits longer for their
   * answers (a 30 s lease, 10 s).
   */
  public static FaultBounds forLease(Duration lease) {
    if (lease.compareTo(MIN_LEASE) < 0 || lease.compareTo(MAX_LEASE) > 0) {
      throw new IllegalArgumentException(
          "lease "
              + lease.toMillis()
              + " ms is outside "
              + MIN_LEASE.toMillis()
              + ".."
              + MAX_LEASE.toMillis()
              + " ms");
    }
    long l = lease.toMillis();
    long beat = Math.min(MAX_HEARTBEAT_MILLIS, l / 3);
    return new FaultBounds(
        l, beat, Math.min(Math.max(BASE_HEARTBEAT_DEADLINE_MILLIS, l / 3), l - beat));
  }

  /**
   * These bounds while agents are described, before any run: no lease is held yet, so a heartbeat
   * may take as long as a lease before its agent counts as lost. A cold agent on a busy host (64
   * agents starting on one 2-core machine, each rehearsing a step with worker processes) missed the
   * run's 5 s while it still answered; a frozen one is still given up on within heartbeat + lease,
   * not at the describe's ceiling of minutes.
   */
  public FaultBounds whileDescribing() {
    return new FaultBounds(leaseMillis, heartbeatMillis, leaseMillis);
  }

  /**
   * These bounds for a step of {@code agents}: the heartbeat every max(heartbeat, 2 ms x agents),
   * still at most a third of the lease, and the call deadline what is left of the lease up to 5 s.
   * Unchanged up to 500 agents.
   */
  public FaultBounds forAgents(int agents) {
    long beat =
        Math.min(Math.max(heartbeatMillis, HEARTBEAT_MILLIS_PER_AGENT * agents), leaseMillis / 3);
    return new FaultBounds(
        leaseMillis, beat, Math.min(heartbeatDeadlineMillis, leaseMillis - beat));
  }
}

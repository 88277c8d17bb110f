package lockstep.agent.run;

/**
 * The lease rule: every run has a finite lease, renewed by any call about it (the coordinator's
 * KeepAlive every few seconds); when it runs out the agent aborts the run and removes its files.
 */
public final class Leases {
  /** Lease of a Prepare that asks for none (lease_millis 0). */
  public static final long DEFAULT_LEASE_MILLIS = 15_000;

  /** The longest lease an agent grants: no run outlives a dead coordinator by more. */
  public static final long MAX_LEASE_MILLIS = 600_000;

  /**
   * When the connection a run was prepared over closes (its coordinator died, or its channel was
   * shut down), the run ends this long after unless a call about it comes on another one.
   */
  public static final long PEER_GONE_GRACE_MILLIS = 3_000;

  /** How long the result of a cleaned run stays for GetResult (`lockstep collect`). */
  public static final long RESULT_RETENTION_MILLIS = 900_000;

  private Leases() {}

  /** The lease a Prepare gets: its own, or the default for 0; above the maximum is refused. */
  public static long effective(long requestedMillis) {
    if (requestedMillis == 0) {
      return DEFAULT_LEASE_MILLIS;
    }
    if (requestedMillis > MAX_LEASE_MILLIS) {
      throw new RunException.Invalid(
          "lease_millis "
              + requestedMillis
              + " is above the agent's maximum of "
              + MAX_LEASE_MILLIS
              + " ms (runs must end soon after their coordinator does); ask for a shorter lease");
    }
    return requestedMillis;
  }
}

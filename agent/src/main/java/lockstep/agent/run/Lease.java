package lockstep.agent.run;

/**
 * One run's lease ({@link Leases}): renewed by every call about the run; it runs out after {@code
 * millis} without one, or {@link Leases#PEER_GONE_GRACE_MILLIS} after the connection the run was
 * prepared over closed with no call since.
 */
final class Lease {
  private final long millis;
  private final String by;
  private volatile long lastCallMillis;
  private volatile long peerGoneAtMillis;

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

  /** The connection the run was prepared over closed now. */
  void peerGone(long nowMillis) {
    peerGoneAtMillis = nowMillis;
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
}

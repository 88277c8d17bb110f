package lockstep.coordinator.agent;

/**
 * One probe of an agent's clock with NTP's four timestamps: the coordinator's wall clock when it
 * sent the probe ({@code sentUnixNanos}, t1), the agent's wall clock when the probe arrived (t2)
 * and when its answer left (t3), and the round trip the coordinator timed (t4 - t1, on its
 * monotonic clock). All ns.
 */
public record ClockSample(
    long sentUnixNanos, long roundTripNanos, long agentReceiveUnixNanos, long agentSendUnixNanos) {

  /** A probe of an agent that reports one time only (taken at once on arrival and answer). */
  public ClockSample(long sentUnixNanos, long roundTripNanos, long agentUnixNanos) {
    this(sentUnixNanos, roundTripNanos, agentUnixNanos, agentUnixNanos);
  }

  /** The coordinator's wall clock when the answer arrived (t4). */
  public long receivedUnixNanos() {
    return sentUnixNanos + roundTripNanos;
  }

  /** Time the agent held the probe (t3 - t2), never negative. */
  public long agentHoldNanos() {
    return Math.max(0, agentSendUnixNanos - agentReceiveUnixNanos);
  }

  /**
   * Time on the wire and in both transports: the round trip less the agent's holding time, ((t4 -
   * t1) - (t3 - t2)). The true offset lies within +-delay/2 of {@link #offsetNanos}.
   */
  public long delayNanos() {
    return Math.max(0, roundTripNanos - agentHoldNanos());
  }

  /**
   * Agent clock minus coordinator clock, NTP's ((t2 - t1) + (t3 - t4)) / 2: exact when the request
   * and the answer took equally long.
   */
  public long offsetNanos() {
    long outbound = agentReceiveUnixNanos - sentUnixNanos;
    long inbound = agentSendUnixNanos - receivedUnixNanos();
    return Math.floorDiv(outbound + inbound, 2);
  }
}

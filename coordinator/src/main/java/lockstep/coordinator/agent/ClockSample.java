package lockstep.coordinator.agent;

/**
 * One probe of an agent's clock: the coordinator's wall clock when it sent the probe, the
 * round trip, and the agent's wall clock when it answered (all ns).
 */
public record ClockSample(long sentUnixNanos, long roundTripNanos, long agentUnixNanos) {
    /** Agent clock minus coordinator clock, assuming the answer was taken mid-way. */
    public long offsetNanos() {
        return agentUnixNanos - (sentUnixNanos + roundTripNanos / 2);
    }
}

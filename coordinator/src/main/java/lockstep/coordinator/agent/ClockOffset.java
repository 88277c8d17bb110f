package lockstep.coordinator.agent;

import java.util.Collection;
import java.util.Comparator;

/**
 * An agent's clock offset (agent minus coordinator, ns) from the probe with the lowest round
 * trip; the true offset lies within +-roundTrip/2 of it.
 */
public record ClockOffset(long offsetNanos, long roundTripNanos, int probes) {

    public static ClockOffset fromBestOf(Collection<ClockSample> samples) {
        ClockSample best = samples.stream().min(Comparator.comparingLong(ClockSample::roundTripNanos))
                .orElseThrow(() -> new IllegalArgumentException("no clock samples"));
        return new ClockOffset(best.offsetNanos(), best.roundTripNanos(), samples.size());
    }

    public static ClockOffset measure(Agent agent, int probes) {
        java.util.List<ClockSample> samples = new java.util.ArrayList<>(probes);
        for (int i = 0; i < probes; i++) {
            samples.add(agent.probeClock());
        }
        return fromBestOf(samples);
    }

    public long toAgentClock(long coordinatorUnixNanos) {
        return coordinatorUnixNanos + offsetNanos;
    }

    public long toCoordinatorClock(long agentUnixNanos) {
        return agentUnixNanos - offsetNanos;
    }

    public long uncertaintyNanos() {
        return roundTripNanos / 2;
    }
}

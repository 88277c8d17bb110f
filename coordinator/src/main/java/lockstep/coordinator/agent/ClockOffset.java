package lockstep.coordinator.agent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * An agent's clock offset (agent minus coordinator, ns) from the probe with the lowest delay
 * (NTP's clock filter); the true offset lies within +-delay/2 of it ({@link #uncertaintyNanos}).
 * {@code roundTripNanos} is that probe's delay: its round trip less the agent's holding time.
 */
public record ClockOffset(long offsetNanos, long roundTripNanos, int probes) {
    /** Probes sent first and not counted: they pay for connection, class loading and cold code. */
    public static final int WARM_UP_PROBES = 4;
    /** Probes counted by default. */
    public static final int PROBES = 16;
    // One agent's probes at a time in this JVM: probes of many agents at once queue behind each
    // other on the coordinator's and agents' cores, and every queueing is uncertainty.
    private static final Object ONE_AGENT_AT_A_TIME = new Object();

    public static ClockOffset fromBestOf(Collection<ClockSample> samples) {
        ClockSample best = samples.stream().min(Comparator.comparingLong(ClockSample::delayNanos))
                .orElseThrow(() -> new IllegalArgumentException("no clock samples"));
        return new ClockOffset(best.offsetNanos(), best.delayNanos(), samples.size());
    }

    /**
     * {@link #WARM_UP_PROBES} discarded probes, then {@link #PROBES} counted ones, one after
     * another; callers on several threads take their turns (one agent probed at a time).
     */
    public static ClockOffset measure(Agent agent) {
        return measure(agent, WARM_UP_PROBES, PROBES);
    }

    public static ClockOffset measure(Agent agent, int warmUp, int probes) {
        if (probes < 1) {
            throw new IllegalArgumentException("probes must be at least 1, got " + probes);
        }
        List<ClockSample> samples = new ArrayList<>(probes);
        synchronized (ONE_AGENT_AT_A_TIME) {
            for (int i = 0; i < warmUp; i++) {
                agent.probeClock();
            }
            for (int i = 0; i < probes; i++) {
                samples.add(agent.probeClock());
            }
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

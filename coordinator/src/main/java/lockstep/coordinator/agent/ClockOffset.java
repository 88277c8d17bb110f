package lockstep.coordinator.agent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * An agent's clock offset (agent minus coordinator, ns) from the probe with the lowest delay (NTP's
 * clock filter); the true offset lies within +-delay/2 of it ({@link #uncertaintyNanos}). {@code
 * roundTripNanos} is that probe's delay: its round trip less the agent's holding time.
 */
public record ClockOffset(long offsetNanos, long roundTripNanos, int probes) {
  /** Probes sent first and not counted: they pay for connection, class loading and cold code. */
  public static final int WARM_UP_PROBES = 4;

  /** Probes counted at most. */
  public static final int PROBES = 16;

  /** Probes counted at least, before a run of probes that found no lower delay ends the probing. */
  static final int MIN_PROBES = 8;

  /** Probes in a row without a lower delay that end the probing (after {@link #MIN_PROBES}). */
  static final int NO_BETTER_IN_A_ROW = 5;

  // One agent's probes at a time in this JVM: probes of many agents at once queue behind each
  // other on the coordinator's and agents' cores, and every queueing is uncertainty.
  private static final Object ONE_AGENT_AT_A_TIME = new Object();

  public static ClockOffset fromBestOf(Collection<ClockSample> samples) {
    ClockSample best =
        samples.stream()
            .min(Comparator.comparingLong(ClockSample::delayNanos))
            .orElseThrow(() -> new IllegalArgumentException("no clock samples"));
    return new ClockOffset(best.offsetNanos(), best.delayNanos(), samples.size());
  }

  /**
   * {@link #WARM_UP_PROBES} discarded probes, then up to {@link #PROBES} counted ones, one after
   * another, stopping early once {@link #MIN_PROBES} are counted and the last {@link
   * #NO_BETTER_IN_A_ROW} found no lower delay; callers on several threads take their turns (one
   * agent probed at a time).
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
      long best = Long.MAX_VALUE;
      int noBetter = 0;
      for (int i = 0; i < probes; i++) {
        ClockSample sample = agent.probeClock();
        samples.add(sample);
        if (sample.delayNanos() < best) {
          best = sample.delayNanos();
          noBetter = 0;
        } else if (++noBetter >= NO_BETTER_IN_A_ROW && samples.size() >= MIN_PROBES) {
          break;
        }
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

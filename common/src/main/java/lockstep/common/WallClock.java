package lockstep.common;

import java.time.Instant;

/**
 * The host's wall clock in ns since the Unix epoch: the time base of start instants, samples and
 * clock-offset probes on both the coordinator and the agent. (Waiting for an instant of it is the
 * agent's {@code lockstep.agent.fs.WallClockWait}, a kernel sleep.)
 */
public final class WallClock {
  private WallClock() {}

  public static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}

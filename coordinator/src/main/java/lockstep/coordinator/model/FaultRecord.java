package lockstep.coordinator.model;

import java.util.List;

/**
 * A scenario's fault as it happened in one step, instants on the coordinator's clock.
 *
 * @param begunUnixNanos when the lab carried it out (0: it could not, see {@code error})
 * @param endedUnixNanos when a freeze or partition ended (0 for a kill, or if it could not end)
 * @param victimLost whether the victim's agent was lost to the step (expected, not a failure)
 * @param error why the lab could not carry it out or end it; null when it did
 * @param ending how a freeze or partition ended ("continued", or the node fenced); null for a kill
 * @param recovery what the lab did after the step so the next one starts from a healthy cluster
 * @param victimSeries the victim's progress as its agent reported it during the step, seconds since
 *     the step's intended start (coordinator clock); empty when it reported none
 * @param victimLostSeconds when the coordinator lost the victim's agent, seconds since the step's
 *     intended start; null while it was not lost
 */
public record FaultRecord(
    Fault fault,
    long begunUnixNanos,
    long endedUnixNanos,
    boolean victimLost,
    String error,
    String ending,
    String recovery,
    List<Sample> victimSeries,
    Double victimLostSeconds) {
  public FaultRecord {
    victimSeries = victimSeries == null ? List.of() : List.copyOf(victimSeries);
  }

  /** A fault without its victim's progress (run.json files written before it was kept). */
  public FaultRecord(
      Fault fault,
      long begunUnixNanos,
      long endedUnixNanos,
      boolean victimLost,
      String error,
      String ending,
      String recovery) {
    this(
        fault,
        begunUnixNanos,
        endedUnixNanos,
        victimLost,
        error,
        ending,
        recovery,
        List.of(),
        null);
  }

  public boolean happened() {
    return begunUnixNanos > 0;
  }

  /**
   * The fault's period, seconds since the step's intended start: [begin, end or the step's end].
   */
  public double beginSeconds(long intendedStartUnixNanos) {
    return (begunUnixNanos - intendedStartUnixNanos) / 1e9;
  }

  public FaultRecord withRecovery(String what) {
    return new FaultRecord(
        fault,
        begunUnixNanos,
        endedUnixNanos,
        victimLost,
        error,
        ending,
        what,
        victimSeries,
        victimLostSeconds);
  }
}

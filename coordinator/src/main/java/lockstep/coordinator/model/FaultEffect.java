package lockstep.coordinator.model;

/**
 * What one fault did to one survivor in one step, from the survivor's time series (seconds since
 * the step's intended start, coordinator clock; resolution one sample, about 0.1 s).
 *
 * @param step the step's id
 * @param survivor the node measured
 * @param faultAtSeconds when the lab carried the fault out
 * @param stallSeconds the longest interval with no completed operation that overlaps the fault's
 *     start or follows it; 0 when the survivor never stopped
 * @param stallFromSeconds when it began (its last operation before)
 * @param stallToSeconds when operations came back, or the end of its series if they did not
 * @param resumed whether operations came back before the survivor's run ended
 * @param backTo90Seconds from the end of the stall until its rate over the last second first
 *     reached 90% of its rate before the fault; null if it never did
 * @param rateBefore its rate (the run's unit) from its start to the fault
 * @param rateDuring from the fault to the end of the stall
 * @param rateAfter from the end of the stall to the end of its run
 */
public record FaultEffect(
    String step,
    String survivor,
    Fault fault,
    double faultAtSeconds,
    double stallSeconds,
    double stallFromSeconds,
    double stallToSeconds,
    boolean resumed,
    Double backTo90Seconds,
    double rateBefore,
    double rateDuring,
    double rateAfter) {}

package lockstep.coordinator.model;

import java.util.List;

/**
 * One step of the plan: a set of nodes started at one instant.
 *
 * @param kind "solo" or "all"
 * @param intendedStartUnixNanos the start instant, coordinator clock
 */
public record StepRecord(
        String id,
        String kind,
        List<String> nodes,
        long intendedStartUnixNanos,
        String status,
        List<NodeResult> results,
        Aggregate aggregate,
        List<String> errors) {

    public boolean ok() {
        return "ok".equals(status);
    }
}

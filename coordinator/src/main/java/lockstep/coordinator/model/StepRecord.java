package lockstep.coordinator.model;

import java.util.List;

/**
 * One step of the plan: a set of nodes started at one instant.
 *
 * @param id unique in the run: the group, plus "-rN" for repeat N when the plan repeats
 * @param kind "solo", "all" or "ramp"
 * @param intendedStartUnixNanos the start instant, coordinator clock
 * @param group the plan step this is a repeat of, e.g. "solo-node1", "ramp-2", "all"
 * @param repeat 1-based repeat number within the group
 */
public record StepRecord(
    String id,
    String kind,
    List<String> nodes,
    long intendedStartUnixNanos,
    RunStatus status,
    List<NodeResult> results,
    Aggregate aggregate,
    List<String> errors,
    String group,
    int repeat) {

  public StepRecord {
    results = results == null ? List.of() : results;
    errors = errors == null ? List.of() : errors;
    nodes = nodes == null ? List.of() : nodes;
    group = group == null || group.isEmpty() ? id : group;
    repeat = Math.max(1, repeat);
  }

  public StepRecord withPlace(String newGroup, int newRepeat) {
    return new StepRecord(
        id,
        kind,
        nodes,
        intendedStartUnixNanos,
        status,
        results,
        aggregate,
        errors,
        newGroup,
        newRepeat);
  }

  public boolean ok() {
    return status == RunStatus.OK;
  }
}

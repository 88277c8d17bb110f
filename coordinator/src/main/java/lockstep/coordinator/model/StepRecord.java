package lockstep.coordinator.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One step of the plan: a set of nodes started at one instant.
 *
 * @param id unique in the run: the group, plus "-rN" for repeat N when the plan repeats
 * @param kind "solo", "all" or "ramp"
 * @param intendedStartUnixNanos the start instant, coordinator clock
 * @param group the plan step this is a repeat of, e.g. "solo-node1", "ramp-2", "all"
 * @param repeat 1-based repeat number within the group
 * @param faults the scenario's faults as they happened in this step (empty: none)
 * @param watched what the watch-only nodes' resources did in this step (no operations: only {@link
 *     NodeResult#resources}); not among {@code results}, the aggregate or any figure
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
    int repeat,
    List<FaultRecord> faults,
    List<NodeResult> watched) {

  public StepRecord {
    faults = faults == null ? List.of() : List.copyOf(faults);
    watched = watched == null ? List.of() : List.copyOf(watched);
    results = results == null ? List.of() : results;
    errors = errors == null ? List.of() : errors;
    nodes = nodes == null ? List.of() : nodes;
    group = group == null || group.isEmpty() ? id : group;
    repeat = Math.max(1, repeat);
  }

  public StepRecord withFaults(List<FaultRecord> happened) {
    return with(group, repeat, happened);
  }

  /** Whether a scenario's fault happened in this step (its figures are not a scaling step's). */
  public boolean faulted() {
    return faults.stream().anyMatch(FaultRecord::happened);
  }

  public StepRecord withPlace(String newGroup, int newRepeat) {
    return with(newGroup, newRepeat, faults);
  }

  private StepRecord with(String newGroup, int newRepeat, List<FaultRecord> newFaults) {
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
        newRepeat,
        newFaults,
        watched);
  }

  /** The workload's nodes' results, then the watch-only nodes': whose resources a report shows. */
  public List<NodeResult> resourceNodes() {
    if (watched.isEmpty()) {
      return results;
    }
    List<NodeResult> all = new ArrayList<>(results);
    all.addAll(watched);
    return List.copyOf(all);
  }

  /** Whether {@code node} only watched in this step (it ran no workload). */
  public boolean watches(String node) {
    return watched.stream().anyMatch(w -> w.node().equals(node));
  }

  public boolean ok() {
    return status == RunStatus.OK;
  }
}

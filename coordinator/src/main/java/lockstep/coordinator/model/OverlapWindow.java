package lockstep.coordinator.model;

import java.util.Map;

/**
 * The window of one step (one repeat) in which every node was running: from the last node's first
 * operation to the first node's end, in seconds since the step's intended start on the
 * coordinator's clock (the stonewall window of IOR/elbencho).
 *
 * @param wholeAggregate sum of the nodes' own throughputs over their whole runs
 * @param windowAggregate sum of the nodes' throughputs inside the window (null if no window)
 * @param windowByNode each node's throughput inside the window
 */
public record OverlapWindow(
    String stepId,
    String group,
    double startSeconds,
    double endSeconds,
    double seconds,
    double wholeSeconds,
    double wholeAggregate,
    Double windowAggregate,
    Map<String, Double> windowByNode) {

  public boolean exists() {
    return seconds > 0 && windowAggregate != null;
  }
}

package lockstep.coordinator.model;

import java.util.List;

/**
 * What one node's resources did during one step, from the agent's samples (docs/results.md).
 *
 * @param device the block device under the agent's root ("" for network and FUSE file systems)
 * @param slaveDevices devices beneath a device-mapper or md device
 * @param cpuCount CPUs of the node (the lines of /proc/stat)
 * @param baseline the idle baseline: from arming to the start instant; null when too short to
 *     measure
 * @param run from the start instant to the end of the run
 * @param series one point per sampling interval, {@code t} seconds since the step's intended start
 *     on the coordinator's clock (as the progress series)
 * @param lockWaitShare lock workloads: the workers' time inside lock ops (latency sum) over workers
 *     x run seconds; null for other workloads
 */
public record NodeResources(
    String device,
    List<String> slaveDevices,
    int cpuCount,
    ResourceFigures baseline,
    ResourceFigures run,
    List<ResourcePoint> series,
    Double lockWaitShare) {

  public NodeResources {
    slaveDevices = slaveDevices == null ? List.of() : List.copyOf(slaveDevices);
    series = series == null ? List.of() : List.copyOf(series);
  }
}

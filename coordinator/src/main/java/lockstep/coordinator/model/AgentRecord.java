package lockstep.coordinator.model;

import java.util.Map;

/**
 * One agent as it described itself at the start of the run, with its node's environment (empty/zero
 * where the agent could not tell, or run.json predates environment capture).
 *
 * @param labels the node's labels from the inventory file (empty without one)
 * @param bootId the host's boot id (empty if the agent did not tell): agents with the same hostname
 *     and boot id share one machine
 */
public record AgentRecord(
    String node,
    String address,
    String version,
    String hostname,
    String root,
    String fsType,
    String mountPoint,
    String mountOptions,
    String mountSource,
    String kernel,
    int cpuCount,
    String cpuModel,
    long memoryBytes,
    String blockDevice,
    Map<String, String> clusterSettings,
    Map<String, String> labels,
    String bootId) {

  public AgentRecord {
    clusterSettings = clusterSettings == null ? Map.of() : Map.copyOf(clusterSettings);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    bootId = bootId == null ? "" : bootId;
  }

  /** True when both agents told the same hostname and the same boot id: one machine, one clock. */
  public boolean sameMachineAs(AgentRecord other) {
    return !bootId.isEmpty()
        && bootId.equals(other.bootId)
        && hostname != null
        && hostname.equals(other.hostname);
  }

  public AgentRecord withBootId(String newBootId) {
    return with(labels, newBootId);
  }

  public AgentRecord withLabels(Map<String, String> newLabels) {
    return with(newLabels, bootId);
  }

  private AgentRecord with(Map<String, String> newLabels, String newBootId) {
    return new AgentRecord(
        node,
        address,
        version,
        hostname,
        root,
        fsType,
        mountPoint,
        mountOptions,
        mountSource,
        kernel,
        cpuCount,
        cpuModel,
        memoryBytes,
        blockDevice,
        clusterSettings,
        newLabels,
        newBootId);
  }
}

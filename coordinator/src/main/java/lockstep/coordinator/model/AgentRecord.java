package lockstep.coordinator.model;

import java.util.Map;

/**
 * One agent as it described itself at the start of the run.
 *
 * @param labels the node's labels from the inventory file (empty without one)
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
        Map<String, String> labels) {

    public AgentRecord {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public AgentRecord(String node, String address, String version, String hostname, String root, String fsType,
                       String mountPoint, String mountOptions, String mountSource) {
        this(node, address, version, hostname, root, fsType, mountPoint, mountOptions, mountSource, Map.of());
    }

    public AgentRecord withLabels(Map<String, String> newLabels) {
        return new AgentRecord(node, address, version, hostname, root, fsType, mountPoint, mountOptions, mountSource, newLabels);
    }
}

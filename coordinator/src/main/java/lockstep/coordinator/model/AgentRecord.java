package lockstep.coordinator.model;

import java.util.Map;

/**
 * One agent as it described itself at the start of the run, with its node's environment
 * (empty/zero where the agent could not tell, or run.json predates environment capture).
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
        Map<String, String> clusterSettings) {

    public AgentRecord {
        clusterSettings = clusterSettings == null ? Map.of() : Map.copyOf(clusterSettings);
    }

    /** Without environment (as before environment capture). */
    public AgentRecord(String node, String address, String version, String hostname, String root, String fsType,
                       String mountPoint, String mountOptions, String mountSource) {
        this(node, address, version, hostname, root, fsType, mountPoint, mountOptions, mountSource, "", 0, "", 0, "", Map.of());
    }
}

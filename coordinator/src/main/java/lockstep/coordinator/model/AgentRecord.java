package lockstep.coordinator.model;

/** One agent as it described itself at the start of the run. */
public record AgentRecord(
        String node,
        String address,
        String version,
        String hostname,
        String root,
        String fsType,
        String mountPoint,
        String mountOptions,
        String mountSource) {
}

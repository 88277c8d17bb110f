package lockstep.coordinator.model;

/** What failed on a node: call, path (relative to the agent root), errno and a message. */
public record ErrorRecord(
    String operation, String path, int errno, String errnoName, String message) {}

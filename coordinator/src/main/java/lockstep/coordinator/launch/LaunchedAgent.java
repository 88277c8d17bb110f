package lockstep.coordinator.launch;

/** An agent started over SSH that answered the coordinator. */
public record LaunchedAgent(
    SshTarget target, String address, long pid, String nodeName, String log) {}

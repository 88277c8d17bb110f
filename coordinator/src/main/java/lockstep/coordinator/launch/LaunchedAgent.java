package lockstep.coordinator.launch;

/**
 * An agent started over SSH that answered the coordinator; {@code bundled}: on the runtime of the
 * agent's tarball (the node had no Java 17+).
 */
public record LaunchedAgent(
    SshTarget target, String address, long pid, String nodeName, String log, boolean bundled) {}

package lockstep.coordinator.launch;

/**
 * One agent to start over SSH.
 *
 * @param name the agent's --name; null lets the agent use the remote host name
 * @param bindHost the address the agent listens on (0.0.0.0: every interface)
 * @param port the agent's port; 0 lets it pick a free one (the launch reports it)
 * @param remoteDir where the jar, pid file and log go on the remote host (relative: under the home
 *     directory)
 * @param agentHost the host the coordinator dials; null: the host ssh connects to ({@code ssh -G})
 * @param insecure start the agent with --insecure (plaintext, unauthenticated on a non-loopback
 *     bind)
 */
public record LaunchSpec(
    SshTarget target,
    String root,
    String name,
    String bindHost,
    int port,
    String remoteDir,
    String java,
    String agentHost,
    boolean insecure) {}

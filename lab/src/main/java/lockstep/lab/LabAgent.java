package lockstep.lab;

/**
 * The one agent of each guest: the package's lockstep-agent.service, serving every stack that is up
 * (one {@code --root} each; a stack's inventory names its root). One agent instead of one per stack
 * halves the JVMs a guest starts in a deploy and a recovery: a node's agent restarted alone
 * answered in 33-37 s, beside its other stack's agent in 64-74 s (docs/performance.md).
 */
final class LabAgent {
  private LabAgent() {}

  /** The agent's systemd unit: the package's own. */
  static final String SERVICE = "lockstep-agent";

  /** The port it listens on inside a guest (TCP gRPC and UDP clock probes). */
  static final int GUEST_PORT = 7070;
}

package lockstep.agent.process;

/**
 * A workload that would exceed a resource limit of the node; refused at prepare, naming the limit
 * and how to raise it.
 */
public final class ResourceLimitException extends RuntimeException {
  public ResourceLimitException(String message) {
    super(message);
  }
}

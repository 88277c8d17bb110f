package lockstep.coordinator.launch;

/**
 * A launch or stop that failed on one node; the message names the node and the reason, in one line.
 */
public final class LaunchException extends RuntimeException {
  public LaunchException(String message) {
    super(message);
  }
}

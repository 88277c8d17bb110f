package lockstep.coordinator.fault;

/** A fault that could not be carried out, ended or recovered from; the message says why. */
public final class FaultException extends RuntimeException {
  public FaultException(String message) {
    super(message);
  }
}

package lockstep.coordinator.lab;

/** Something the lab cannot do or was asked wrongly; the message is the one line a user sees. */
public final class LabException extends RuntimeException {
  public LabException(String message) {
    super(message);
  }

  public LabException(String message, Throwable cause) {
    super(message, cause);
  }
}

package lockstep.lab;

/** Something the lab cannot do or was asked wrongly; the message is the one line a user sees. */
public class LabException extends RuntimeException {
  public LabException(String message) {
    super(message);
  }

  public LabException(String message, Throwable cause) {
    super(message, cause);
  }
}

package lockstep.coordinator.scenario;

/** A scenario (or command line) the coordinator refuses; the message names file and field. */
public final class ScenarioException extends RuntimeException {
  public ScenarioException(String message) {
    super(message);
  }
}

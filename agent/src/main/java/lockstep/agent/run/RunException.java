package lockstep.agent.run;

/**
 * Why the agent refuses a call about a run, in the run layer's words: each kind is one reason, its
 * message says what is wrong and what to do. The service turns each kind into its status at its
 * edge; the run layer never speaks gRPC.
 */
public abstract sealed class RunException extends RuntimeException {
  private RunException(String message) {
    super(message);
  }

  /** The request itself is wrong (a field empty, too long or out of bounds). */
  public static final class Invalid extends RunException {
    Invalid(String message) {
      super(message);
    }
  }

  /** No run with that id on this node. */
  public static final class NotFound extends RunException {
    NotFound(String message) {
      super(message);
    }
  }

  /** The run belongs to another caller: whoever prepared it. */
  public static final class NotOwner extends RunException {
    NotOwner(String message) {
      super(message);
    }
  }

  /** Another run holds this node (one run at a time per agent). */
  public static final class Busy extends RunException {
    Busy(String message) {
      super(message);
    }
  }

  /** The run id is taken by a run with another workload. */
  public static final class Conflict extends RunException {
    Conflict(String message) {
      super(message);
    }
  }

  /** The run is in a state the call cannot move it from (started for another instant). */
  public static final class IllegalTransition extends RunException {
    IllegalTransition(String message) {
      super(message);
    }
  }

  /** The node could not set the run up (its manifest, a file, a worker). */
  public static final class PrepareFailed extends RunException {
    PrepareFailed(String message) {
      super(message);
    }
  }

  /** The run would exceed a resource limit of the node. */
  public static final class NoResources extends RunException {
    NoResources(String message) {
      super(message);
    }
  }

  /** The agent is stopping and takes no new run. */
  public static final class Stopping extends RunException {
    Stopping(String message) {
      super(message);
    }
  }
}

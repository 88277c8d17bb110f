package lockstep.common;

/** A workload parameter the agent refuses, named by its scenario field. */
public final class InvalidWorkloadException extends FieldException {
  public InvalidWorkloadException(String field, String problem) {
    super("workload." + field + ": " + problem, field, problem);
  }
}

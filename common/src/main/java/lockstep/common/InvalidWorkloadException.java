package lockstep.common;

/** A workload parameter the agent refuses, named by its scenario field. */
public final class InvalidWorkloadException extends RuntimeException {
  private final String field;
  private final String problem;

  public InvalidWorkloadException(String field, String problem) {
    super("workload." + field + ": " + problem);
    this.field = field;
    this.problem = problem;
  }

  public String problem() {
    return problem;
  }

  public String field() {
    return field;
  }
}

package lockstep.common;

/** A value refused for one named field: the field and what is wrong with it, in one line. */
public abstract class FieldException extends RuntimeException {
  private final String field;
  private final String problem;

  protected FieldException(String message, String field, String problem) {
    super(message);
    this.field = field;
    this.problem = problem;
  }

  public String field() {
    return field;
  }

  public String problem() {
    return problem;
  }
}

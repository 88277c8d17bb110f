package lockstep.coordinator.expect;

/**
 * An expectation refused before the run: the field it was given in ("efficiency") and what is wrong
 * with it, in one line. The scenario parser shows it as {@code scenario F: expect.FIELD: PROBLEM},
 * the command line as {@code --expect FIELD: PROBLEM}.
 */
public final class ExpectationException extends RuntimeException {
  private final String field;
  private final String problem;

  public ExpectationException(String field, String problem) {
    super(field + ": " + problem);
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

package lockstep.coordinator.expect;

import lockstep.common.FieldException;

/**
 * An expectation refused before the run: the field it was given in ("efficiency") and what is wrong
 * with it, in one line. The scenario parser shows it as {@code scenario F: expect.FIELD: PROBLEM},
 * the command line as {@code --expect FIELD: PROBLEM}.
 */
public final class ExpectationException extends FieldException {
  public ExpectationException(String field, String problem) {
    super(field + ": " + problem, field, problem);
  }
}

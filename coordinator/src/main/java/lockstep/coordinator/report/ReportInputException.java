package lockstep.coordinator.report;

/** A run, run directory or run.json given on the command line that cannot be used; one line. */
public final class ReportInputException extends RuntimeException {
  public ReportInputException(String message) {
    super(message);
  }
}

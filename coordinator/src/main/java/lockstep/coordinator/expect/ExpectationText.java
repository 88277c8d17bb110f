package lockstep.coordinator.expect;

import java.io.PrintStream;
import java.util.List;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.ExpectationStatus;

/** The expectations' section of the terminal report: one line per expectation, broken ones loud. */
public final class ExpectationText {
  private ExpectationText() {}

  /** Prints nothing for a run without expectations. */
  public static void print(List<ExpectationOutcome> outcomes, PrintStream out) {
    if (outcomes.isEmpty()) {
      return;
    }
    long held = outcomes.stream().filter(o -> o.status() == ExpectationStatus.HELD).count();
    long broken = outcomes.stream().filter(ExpectationOutcome::broken).count();
    String summary =
        broken == 0 && held == outcomes.size()
            ? "all " + held + " held"
            : held == 0 && broken == 0
                ? "not judged"
                : held + " of " + outcomes.size() + " held, " + broken + " broken";
    out.println();
    out.println("Expectations: " + summary);
    for (ExpectationOutcome o : outcomes) {
      out.println("  " + mark(o.status()) + "  " + o.message());
    }
  }

  private static String mark(ExpectationStatus s) {
    return switch (s) {
      case HELD -> "held  ";
      case BROKEN -> "BROKEN";
      case ERROR -> "error ";
    };
  }
}

package lockstep.coordinator.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.Severity;

/**
 * The verdict as a reader takes it in, for the terminal and the page alike: the headlines, then the
 * other findings by kind, each code's repeats folded into its first ("the same for 5 more steps:
 * ...").
 */
public final class VerdictLines {
  private VerdictLines() {}

  /** One line to show: its severity, its code, its text, and the steps folded into it. */
  public record Line(Severity severity, FindingCode code, String text, List<String> alsoSteps) {
    /** The text with the folded steps named after it. */
    public String shown() {
      if (alsoSteps.isEmpty()) {
        return text;
      }
      return text
          + " (the same for "
          + alsoSteps.size()
          + " more step"
          + (alsoSteps.size() == 1 ? "" : "s")
          + ": "
          + String.join(", ", alsoSteps)
          + ")";
    }

    /** "WARNING: " before a warning or an invalid run's reason, nothing before information. */
    public String prefix() {
      return severity == Severity.INFO ? "" : severity.name() + ": ";
    }
  }

  public static List<Line> headlines(List<Finding> findings) {
    return fold(findings.stream().filter(Finding::headline).toList());
  }

  /** The findings that are not headlines, by kind in the kinds' order, each kind folded. */
  public static Map<FindingKind, List<Line>> rest(List<Finding> findings) {
    Map<FindingKind, List<Finding>> byKind = new LinkedHashMap<>();
    for (FindingKind k : FindingKind.values()) {
      List<Finding> of = findings.stream().filter(f -> !f.headline() && f.kind() == k).toList();
      if (!of.isEmpty()) {
        byKind.put(k, of);
      }
    }
    Map<FindingKind, List<Line>> out = new LinkedHashMap<>();
    byKind.forEach((k, fs) -> out.put(k, fold(fs)));
    return out;
  }

  /**
   * Findings of one code and severity about different steps become one line: the first, with the
   * others' steps named after it.
   */
  static List<Line> fold(List<Finding> findings) {
    List<Line> out = new ArrayList<>();
    Map<List<Object>, Integer> firstOf = new LinkedHashMap<>();
    for (Finding f : findings) {
      List<Object> key = List.of(f.type(), f.severity());
      Integer at = f.step() == null ? null : firstOf.get(key);
      if (at != null) {
        Line first = out.get(at);
        List<String> also = new ArrayList<>(first.alsoSteps());
        also.add(f.step());
        out.set(at, new Line(first.severity(), first.code(), first.text(), List.copyOf(also)));
        continue;
      }
      if (f.step() != null) {
        firstOf.put(key, out.size());
      }
      out.add(new Line(f.severity(), f.type(), f.message(), List.of()));
    }
    return out;
  }
}

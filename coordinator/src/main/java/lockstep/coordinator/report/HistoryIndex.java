package lockstep.coordinator.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.RunRecord;

/** The runs under a results directory, newest first, one line each. */
public final class HistoryIndex {
  private HistoryIndex() {}

  /** One run: when, what, where, its headline figure and the first sentence of its verdict. */
  public record Entry(
      String runId,
      String createdAt,
      String name,
      String workload,
      List<String> nodes,
      String headline,
      String verdict,
      String status,
      Path runJson) {}

  /**
   * Entries for every OUT/RUN-ID/run.json; unreadable ones are listed as such, not skipped
   * silently.
   */
  public static List<Entry> scan(Path out) {
    if (!Files.isDirectory(out)) {
      throw new ReportInputException("results directory " + out + " does not exist");
    }
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(out)) {
      for (Path dir : dirs.filter(Files::isDirectory).toList()) {
        Path json = dir.resolve(ResultsStore.RUN_FILE);
        if (!Files.isRegularFile(json)) {
          continue;
        }
        try {
          entries.add(entry(RunLocator.load(json), json));
        } catch (ReportInputException e) {
          entries.add(
              new Entry(
                  dir.getFileName().toString(),
                  "",
                  "",
                  "",
                  List.of(),
                  "",
                  e.getMessage(),
                  "unreadable",
                  json));
        }
      }
    } catch (IOException e) {
      throw new ReportInputException("results directory " + out + ": " + e.getMessage());
    }
    entries.sort(Comparator.comparing(Entry::createdAt).thenComparing(Entry::runId).reversed());
    return entries;
  }

  static Entry entry(RunRecord r, Path json) {
    Analysis a = r.analysis();
    String headline = "";
    if (a != null && a.concurrentSumOfNodes() != null) {
      headline =
          Verdicts.num(a.concurrentSumOfNodes())
              + " "
              + r.unit()
              + " together"
              + (a.aggregateEfficiency() == null
                  ? ""
                  : String.format(Locale.ROOT, " (%.2fx solos)", a.aggregateEfficiency()));
    } else if (a != null && a.sumOfSolos() != null) {
      headline = Verdicts.num(a.sumOfSolos()) + " " + r.unit() + " sum of solos";
    }
    String verdict = a == null || a.verdict().isEmpty() ? "" : a.verdict().get(0);
    String status = a != null && !a.valid() ? "invalid" : r.status().toString();
    return new Entry(
        r.runId(),
        r.createdAt(),
        r.name(),
        r.workloadType(),
        r.agents().stream().map(AgentRecord::node).toList(),
        headline,
        verdict,
        status,
        json);
  }
}

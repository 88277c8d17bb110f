package lockstep.coordinator.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lockstep.coordinator.report.HistoryIndex;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code lockstep history [--out DIR]}: the saved runs, newest first. */
@Command(
    name = "history",
    description =
        "List the runs under the results directory, newest first: workload, nodes, headline figure,"
            + " verdict.")
final class HistoryCommand implements Callable<Integer> {
  @CommandLine.Mixin SavedRunsOption runs = new SavedRunsOption();

  @Override
  public Integer call() {
    List<HistoryIndex.Entry> entries = HistoryIndex.scan(runs.out);
    if (entries.isEmpty()) {
      System.out.println("No runs under " + runs.out + ".");
      return 0;
    }
    System.out.printf(
        "%-44s %-20s %-11s %-22s %-32s %s%n",
        "run", "when (UTC)", "workload", "nodes", "headline", "verdict");
    for (HistoryIndex.Entry e : entries) {
      String when =
          e.createdAt().length() >= 19
              ? e.createdAt().substring(0, 19).replace('T', ' ')
              : e.createdAt();
      String nodes = e.nodes().size() + ": " + String.join(",", e.nodes());
      String verdict =
          ("ok".equals(e.status()) ? "" : e.status().toUpperCase(Locale.ROOT) + ": ") + e.verdict();
      System.out.printf(
          "%-44s %-20s %-11s %-22s %-32s %s%n",
          e.runId(), when, e.workload(), shorten(nodes, 22), e.headline(), shorten(verdict, 110));
    }
    return 0;
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}

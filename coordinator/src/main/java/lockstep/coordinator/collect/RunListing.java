package lockstep.coordinator.collect;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.collect.RunCollector.Holdings;

/** {@code lockstep collect} without a run: one line per run each agent holds. */
public final class RunListing {
  private RunListing() {}

  /** Prints the table; nodes holding nothing get a line saying so. */
  public static void print(List<Holdings> holdings, PrintStream out) {
    out.printf(
        "%-12s %-44s %-10s %-6s %-24s %-24s %-10s %s%n",
        "node",
        "run",
        "state",
        "yours",
        "prepared",
        "files removed",
        "workload",
        "owner / prepared by");
    for (Holdings h : holdings) {
      String node = h.node().getNodeName();
      if (h.runs().getRunsCount() == 0) {
        out.printf("%-12s (no runs)%n", node);
      }
      for (RunSummary s : h.runs().getRunsList()) {
        out.printf(
            "%-12s %-44s %-10s %-6s %-24s %-24s %-10s %s%n",
            node,
            s.getRunId(),
            s.getState().name().replace("RUN_STATE_", ""),
            s.getYours() ? "yes" : "no",
            Instant.ofEpochMilli(s.getPreparedAtUnixMillis()),
            s.getCleanedAtUnixMillis() == 0
                ? "no"
                : Instant.ofEpochMilli(s.getCleanedAtUnixMillis()).toString(),
            s.getWorkload().getKindCase() == WorkloadSpec.KindCase.KIND_NOT_SET
                ? "-"
                : WorkloadKind.of(s.getWorkload()).name(),
            s.getOwner()
                + " / "
                + s.getPreparedBy()
                + (s.getAbortReason().isEmpty() ? "" : "; aborted: " + s.getAbortReason()));
      }
    }
  }
}

package lockstep.coordinator.collect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.v1.AbortResponse;
import lockstep.agent.v1.RunSummary;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.results.StepIds;

/**
 * {@code lockstep abort RUN}: on every agent, each step of RUN that still holds files, locks or
 * workers is aborted and its files removed (Abort with remove_files), the agent keeping the step's
 * result as a lease that runs out does: a coordinator still running the step reports it aborted and
 * cleans it, and {@code collect} can still fetch it. The agent decides who may: only the identity
 * that prepared a run; anyone else gets its PERMISSION_DENIED, kept per agent.
 */
public final class RunAborter {
  private static final Duration BUDGET = Duration.ofMinutes(1);

  private final AgentEnsemble ensemble;

  public RunAborter(AgentEnsemble ensemble) {
    this.ensemble = ensemble;
  }

  /** One step of the run on one node, aborted and cleaned. */
  public record Aborted(
      String node, String agentRunId, long filesRemoved, List<String> leftovers) {}

  /** Per agent, the steps it aborted (empty: it held nothing of the run in progress). */
  public FanOut<List<Aborted>> abort(String runId, String reason) {
    return ensemble.call(
        "abort",
        BUDGET,
        ensemble.agents(),
        a -> {
          String node = a.describe().getNodeName();
          List<Aborted> out = new ArrayList<>();
          for (RunSummary s : a.listRuns().getRunsList()) {
            if (!StepIds.partOf(s.getRunId(), runId) || s.getCleanedAtUnixMillis() > 0) {
              continue;
            }
            AbortResponse aborted = a.abort(s.getRunId(), reason, true);
            out.add(
                new Aborted(
                    node, s.getRunId(), aborted.getFilesRemoved(), aborted.getLeftoversList()));
          }
          return out;
        });
  }
}

package lockstep.coordinator.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.results.StepIds;

/**
 * One step while it runs: its ids, its nodes and their agents, the guard that watches them, and the
 * errors seen so far (in the order they happened).
 */
final class StepContext {
  private final String agentRunId;
  private final String stepId;
  private final Map<Agent, String> names = new LinkedHashMap<>();
  private final List<String> errors = new ArrayList<>();
  private StepGuard guard;

  StepContext(String runId, String stepId, List<StepNode> nodes) {
    this.agentRunId = StepIds.agentRunId(runId, stepId);
    this.stepId = stepId;
    nodes.forEach(n -> names.put(n.agent(), n.node()));
  }

  /** The run id the agents hold this step under. */
  String agentRunId() {
    return agentRunId;
  }

  String stepId() {
    return stepId;
  }

  List<Agent> agents() {
    return List.copyOf(names.keySet());
  }

  List<String> nodes() {
    return List.copyOf(names.values());
  }

  String node(Agent a) {
    return names.get(a);
  }

  void guardedBy(StepGuard g) {
    this.guard = g;
  }

  StepGuard guard() {
    return guard;
  }

  /** The step's agents that are not lost. */
  List<Agent> live() {
    return names.keySet().stream().filter(a -> !guard.isLost(a)).toList();
  }

  void error(String line) {
    errors.add(line);
  }

  List<String> errors() {
    return errors;
  }
}

package lockstep.coordinator.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  private final Set<Agent> watchers = new LinkedHashSet<>();

  /**
   * @param nodes the nodes that run the workload
   * @param watching watch-only nodes: prepared, started, finished and collected with the others,
   *     but running nothing and counted in no figure
   */
  StepContext(String runId, String stepId, List<StepNode> nodes, List<StepNode> watching) {
    this.agentRunId = StepIds.agentRunId(runId, stepId);
    this.stepId = stepId;
    nodes.forEach(n -> names.put(n.agent(), n.node()));
    watching.forEach(
        n -> {
          names.put(n.agent(), n.node());
          watchers.add(n.agent());
        });
  }

  /** The run id the agents hold this step under. */
  String agentRunId() {
    return agentRunId;
  }

  String stepId() {
    return stepId;
  }

  /** Every agent of the step, watch-only ones included. */
  List<Agent> agents() {
    return List.copyOf(names.keySet());
  }

  /** The agents that run the workload. */
  List<Agent> workers() {
    return names.keySet().stream().filter(a -> !watchers.contains(a)).toList();
  }

  boolean watches(Agent a) {
    return watchers.contains(a);
  }

  /** The nodes that run the workload: the step's nodes in its record. */
  List<String> nodes() {
    return workers().stream().map(names::get).toList();
  }

  /** The watch-only nodes (a fault may act on them too). */
  List<String> watchingNodes() {
    return watchers.stream().map(names::get).toList();
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

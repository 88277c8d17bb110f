package lockstep.coordinator.run;

import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.results.StepIds;
import lockstep.coordinator.scenario.PlanFields;
import lockstep.coordinator.scenario.PlanStep;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * The steps a scenario's plan runs on a set of nodes, in order: the whole plan once per repeat (so
 * slow drift spreads over every step); "solo" is one step per node, "all" one step with every node,
 * "ramp" one step per node count K with the first K nodes.
 */
public final class PlanSchedule {
  private PlanSchedule() {}

  /** One step to run. {@code id} is the group, plus "-rN" when the plan repeats. */
  public record Scheduled(String id, String group, String kind, int repeat, List<StepNode> nodes) {}

  public static List<Scheduled> of(Scenario scenario, List<StepNode> nodes) {
    List<Integer> ramp = PlanFields.counts(scenario.ramp(), nodes.size());
    if (scenario.plan().contains(PlanStep.RAMP)) {
      for (int k : ramp) {
        if (k > nodes.size()) {
          throw new ScenarioException(
              "scenario "
                  + scenario.name()
                  + ": ramp: "
                  + k
                  + " nodes asked for, but only "
                  + nodes.size()
                  + " agent(s) given");
        }
      }
    }
    List<Scheduled> out = new ArrayList<>();
    for (int r = 1; r <= scenario.repeat(); r++) {
      for (PlanStep step : scenario.plan()) {
        switch (step) {
          case SOLO -> {
            for (StepNode n : nodes) {
              out.add(
                  scheduled(
                      StepIds.SOLO + "-" + n.node(),
                      StepIds.SOLO,
                      r,
                      scenario.repeat(),
                      List.of(n)));
            }
          }
          case ALL -> out.add(scheduled(StepIds.ALL, StepIds.ALL, r, scenario.repeat(), nodes));
          case RAMP -> {
            for (int k : ramp) {
              out.add(
                  scheduled(
                      StepIds.RAMP + "-" + k,
                      StepIds.RAMP,
                      r,
                      scenario.repeat(),
                      nodes.subList(0, k)));
            }
          }
          default -> throw new IllegalStateException("unknown plan step " + step);
        }
      }
    }
    return out;
  }

  private static Scheduled scheduled(
      String group, String kind, int repeat, int repeats, List<StepNode> nodes) {
    return new Scheduled(
        StepIds.of(group, repeat, repeats), group, kind, repeat, List.copyOf(nodes));
  }
}

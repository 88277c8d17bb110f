package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lockstep.coordinator.results.StepIds;
import lockstep.coordinator.run.PlanSchedule;
import lockstep.coordinator.run.StepNode;
import org.junit.jupiter.api.Test;

class PlanParsingTest {
  private static final String WORKLOAD = "workload: {type: lock-files, processes: 1, files: 1}\n";

  private static Scenario parse(String top) {
    return new ScenarioParser().parse("name: t\n" + top + WORKLOAD, "t.yaml");
  }

  private static List<StepNode> nodes(int n) {
    return java.util.stream.IntStream.rangeClosed(1, n)
        .mapToObj(i -> new StepNode("node" + i, null))
        .toList();
  }

  @Test
  void defaultsToSoloThenAllOnce() {
    Scenario s = parse("");
    assertThat(s.plan()).containsExactly(PlanStep.SOLO, PlanStep.ALL);
    assertThat(s.repeat()).isEqualTo(1);
    assertThat(PlanSchedule.of(s, nodes(2)))
        .extracting(PlanSchedule.Scheduled::id)
        .containsExactly("solo-node1", "solo-node2", "all");
  }

  @Test
  void rampDoublesUpToAllNodesByDefault() {
    Scenario s = parse("plan: [ramp]\n");
    assertThat(PlanFields.counts(s.ramp(), 5)).containsExactly(1, 2, 4, 5);
    assertThat(PlanFields.counts(s.ramp(), 4)).containsExactly(1, 2, 4);
    var steps = PlanSchedule.of(s, nodes(3));
    assertThat(steps)
        .extracting(PlanSchedule.Scheduled::id)
        .containsExactly("ramp-1", "ramp-2", "ramp-3");
    assertThat(steps.get(1).nodes()).extracting(StepNode::node).containsExactly("node1", "node2");
  }

  @Test
  void explicitRampAndRepeatInterleaveThePlan() {
    Scenario s = parse("plan: [solo, ramp]\nramp: [1, 3]\nrepeat: 2\n");
    assertThat(s.ramp()).containsExactly(1, 3);
    assertThat(PlanSchedule.of(s, nodes(3)))
        .extracting(PlanSchedule.Scheduled::id)
        .containsExactly(
            "solo-node1-r1",
            "solo-node2-r1",
            "solo-node3-r1",
            "ramp-1-r1",
            "ramp-3-r1",
            "solo-node1-r2",
            "solo-node2-r2",
            "solo-node3-r2",
            "ramp-1-r2",
            "ramp-3-r2");
    assertThat(PlanSchedule.of(s, nodes(3)).get(4).group()).isEqualTo("ramp-3");
    // read back from an id, as `lockstep collect` does
    for (PlanSchedule.Scheduled step : PlanSchedule.of(s, nodes(3))) {
      assertThat(StepIds.parse(step.id()))
          .isEqualTo(new StepIds.StepId(step.group(), step.kind(), step.repeat()));
    }
    assertThat(StepIds.parse("all")).isEqualTo(new StepIds.StepId("all", "all", 1));
    assertThat(StepIds.parse("solo-node2")).isEqualTo(new StepIds.StepId("solo-node2", "solo", 1));
  }

  /** Parsing refuses the plan fields with a message that contains {@code message}. */
  private static void assertRefused(String top, String message) {
    assertThatThrownBy(() -> parse(top)).hasMessageContaining(message);
  }

  @Test
  void badPlanFieldsNameTheField() {
    assertRefused("plan: [solo, ramp]\nramp: [0]\n", "ramp: '0' is not a node count");
    assertRefused("plan: [solo, ramp]\nramp: [2, 2]\n", "ramp: 2 is listed twice");
    assertRefused("plan: [solo]\nramp: [2]\n", "the plan has no 'ramp' step");
    assertRefused("plan: [solo, ramp]\nramp: 2\n", "ramp: must be a non-empty list");
    assertRefused("repeat: 0\n", "repeat: 0 is outside the allowed range 1 .. 100");
    assertRefused("plan: [solo, rmap]\n", "unknown step 'rmap' (known: solo, all, ramp)");
  }

  @Test
  void aRampOfMoreNodesThanAgentsNamesTheField() {
    Scenario tooBig = parse("plan: [ramp]\nramp: [1, 4]\n");
    assertThatThrownBy(() -> PlanSchedule.of(tooBig, nodes(3)))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("ramp: 4 nodes asked for, but only 3 agent(s) given");
  }
}

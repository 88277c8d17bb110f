package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Map;
import lockstep.lab.Stack;
import org.junit.jupiter.api.Test;

/** The one lab a test run boots: the union of its classes' shapes and boot settings. */
class LabPlanTest {
  private static LabPlan.Shape shape(int nodes, Map<String, String> boot, Stack... stacks) {
    EnumSet<Stack> s = EnumSet.noneOf(Stack.class);
    s.addAll(java.util.List.of(stacks));
    return new LabPlan.Shape(s, nodes, boot);
  }

  @Test
  void theRunsLabHasEveryStackTheMostNodesAndEveryClassesBootSettings() {
    LabPlan.Shape all =
        shape(2, Map.of("localalloc", "8"), Stack.OCFS2)
            .plus(shape(3, Map.of(), Stack.GFS2))
            .plus(shape(2, Map.of("disk-mbps", "4"), Stack.GFS2));
    assertThat(all.stacks()).containsExactlyInAnyOrder(Stack.GFS2, Stack.OCFS2);
    assertThat(all.nodes()).isEqualTo(3);
    assertThat(all.bootSettings())
        .containsExactlyInAnyOrderEntriesOf(Map.of("localalloc", "8", "disk-mbps", "4"));
    assertThat(all.serves(shape(3, Map.of(), Stack.OCFS2))).isTrue();
    assertThat(all.serves(shape(4, Map.of(), Stack.OCFS2))).isFalse();
  }

  @Test
  void aSettingTwoClassesWantDifferentlyIsLeftToTheDefaultWhateverComesAfter() {
    LabPlan.Shape all =
        shape(2, Map.of("localalloc", "8"), Stack.OCFS2)
            .plus(shape(2, Map.of("localalloc", "0"), Stack.OCFS2))
            .plus(shape(2, Map.of("localalloc", "8"), Stack.OCFS2));
    assertThat(all.bootSettings()).isEmpty();
  }
}

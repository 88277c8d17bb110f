package lockstep.agent.run;

import static lockstep.agent.v1.RunState.RUN_STATE_ABORTED;
import static lockstep.agent.v1.RunState.RUN_STATE_ARMED;
import static lockstep.agent.v1.RunState.RUN_STATE_FAILED;
import static lockstep.agent.v1.RunState.RUN_STATE_PREPARED;
import static lockstep.agent.v1.RunState.RUN_STATE_RUNNING;
import static lockstep.agent.v1.RunState.RUN_STATE_SUCCEEDED;
import static lockstep.agent.v1.RunState.RUN_STATE_UNSPECIFIED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import lockstep.agent.v1.RunState;
import org.junit.jupiter.api.Test;

class RunStatesTest {
  @Test
  void aRunGoesForwardOnlyAndEndsOnce() {
    assertThat(RunStates.allows(RUN_STATE_PREPARED, RUN_STATE_ARMED)).isTrue();
    assertThat(RunStates.allows(RUN_STATE_ARMED, RUN_STATE_RUNNING)).isTrue();
    assertThat(RunStates.allows(RUN_STATE_RUNNING, RUN_STATE_SUCCEEDED)).isTrue();
    assertThat(RunStates.allows(RUN_STATE_PREPARED, RUN_STATE_RUNNING))
        .as("running needs an instant")
        .isFalse();
    assertThat(RunStates.allows(RUN_STATE_ARMED, RUN_STATE_SUCCEEDED))
        .as("succeeding needs the instant to have come")
        .isFalse();
    assertThat(RunStates.allows(RUN_STATE_RUNNING, RUN_STATE_ARMED)).isFalse();
    for (RunState end : EnumSet.of(RUN_STATE_SUCCEEDED, RUN_STATE_FAILED, RUN_STATE_ABORTED)) {
      assertThat(RunStates.isFinal(end)).isTrue();
      for (RunState s : RunState.values()) {
        assertThat(RunStates.allows(end, s)).as("%s -> %s", end, s).isFalse();
      }
    }
  }

  @Test
  void everyStateThatIsNotFinalCanBeAborted() {
    for (RunState s : EnumSet.of(RUN_STATE_PREPARED, RUN_STATE_ARMED, RUN_STATE_RUNNING)) {
      assertThat(RunStates.isFinal(s)).isFalse();
      assertThat(RunStates.allows(s, RUN_STATE_ABORTED)).as(s.name()).isTrue();
    }
    assertThat(RunStates.isFinal(RUN_STATE_UNSPECIFIED)).isFalse();
    assertThat(RunStates.allows(RUN_STATE_UNSPECIFIED, RUN_STATE_PREPARED)).isFalse();
  }
}

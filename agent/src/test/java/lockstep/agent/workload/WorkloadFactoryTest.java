package lockstep.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import org.junit.jupiter.api.Test;

/** The agent checks every spec with the shared WorkloadValidator before it creates anything. */
class WorkloadFactoryTest extends TempRootTest {
  @Test
  void theAgentRefusesThroughTheValidatorBeforeTouchingAnything() {
    WriteWorkload write =
        WriteWorkload.newBuilder().setFile("w").setSizeBytes(0).setBlockSizeBytes(4096).build();
    assertThatThrownBy(
            () ->
                WorkloadFactory.create(
                    WorkloadSpec.newBuilder().setWrite(write).build(),
                    paths(),
                    1,
                    CallDeadline.NONE))
        .hasMessage("workload.size: must be greater than 0");
    assertThat(root.toFile().list()).isEmpty();
  }
}

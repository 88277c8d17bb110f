package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkerJvmOptionsTest {
  @Test
  void timedLoopsGetC2AndCountedWorkloadsC1Only() {
    assertThat(WorkerProcess.jvmOptions(true, null))
        .contains("-XX:+UseSerialGC")
        .noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel"));
    assertThat(WorkerProcess.jvmOptions(false, null)).contains("-XX:TieredStopAtLevel=1");
  }

  @Test
  void extraOptionsComeAfterTheDefaultsSoTheyWin() {
    assertThat(WorkerProcess.jvmOptions(true, "  -XX:TieredStopAtLevel=1   -Xmx64m "))
        .endsWith("-XX:TieredStopAtLevel=1", "-Xmx64m");
    assertThat(WorkerProcess.jvmOptions(false, " "))
        .isEqualTo(WorkerProcess.jvmOptions(false, null));
  }
}

package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;

import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerTask;
import org.junit.jupiter.api.Test;

class WorkerJvmOptionsTest {
  private static WorkerTask pingPong(int processes) {
    return WorkerTask.newBuilder()
        .setWorkload(
            WorkloadKind.PING_PONG.spec(
                PingPongWorkload.newBuilder()
                    .setProcesses(processes)
                    .setDurationMillis(5000)
                    .build()))
        .build();
  }

  @Test
  void c2OnlyForATimedLoopWithACpuToSpare() {
    assertThat(WorkerProcess.c2(pingPong(1), 2)).isTrue();
    assertThat(WorkerProcess.c2(pingPong(1), 1)).as("one-CPU node").isFalse();
    assertThat(WorkerProcess.c2(pingPong(2), 2)).isFalse();
    WorkerTask lockFiles =
        WorkerTask.newBuilder()
            .setWorkload(
                WorkloadKind.LOCK_FILES.spec(
                    LockFilesWorkload.newBuilder().setProcesses(1).setFiles(10).build()))
            .build();
    assertThat(WorkerProcess.c2(lockFiles, 16)).as("counted, not timed").isFalse();
  }

  @Test
  void c1OnlyUnlessC2AndExtraOptionsComeLastSoTheyWin() {
    assertThat(WorkerProcess.jvmOptions(true, null))
        .contains("-XX:+UseSerialGC")
        .noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel"));
    assertThat(WorkerProcess.jvmOptions(false, null))
        .contains("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1");
    assertThat(WorkerProcess.jvmOptions(true, null))
        .noneMatch(o -> o.startsWith("-XX:CompileThresholdScaling"));
    assertThat(WorkerProcess.jvmOptions(true, "  -XX:TieredStopAtLevel=1   -Xmx64m "))
        .endsWith("-XX:TieredStopAtLevel=1", "-Xmx64m");
    assertThat(WorkerProcess.jvmOptions(false, " "))
        .isEqualTo(WorkerProcess.jvmOptions(false, null));
  }
}

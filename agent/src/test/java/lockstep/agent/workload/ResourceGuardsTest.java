package lockstep.agent.workload;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import lockstep.agent.process.ResourceLimitException;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each guard refuses past its limit, naming the field, the limit and the variable that raises it;
 * within it, nothing.
 */
class ResourceGuardsTest {
  @TempDir Path root;

  private final ResourceGuards guards = new ResourceGuards(10_000, 60_000, 1 << 20);

  private static WorkloadSpec lockFiles(int processes, int files) {
    return WorkloadSpec.newBuilder()
        .setLockFiles(
            LockFilesWorkload.newBuilder().setDir("d").setProcesses(processes).setFiles(files))
        .build();
  }

  @Test
  void tooManyFilesAreRefusedNamingTheLimitAndHowToRaiseIt() {
    assertThatThrownBy(() -> guards.check(lockFiles(11, 1000), root))
        .isInstanceOf(ResourceLimitException.class)
        .hasMessage(
            "workload.processes x workload.files: 11000 files, above this agent's limit of 10000"
                + " per run; lower them, or raise the limit with LOCKSTEP_MAX_FILES in the agent's"
                + " environment");
    assertThatThrownBy(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setMetadata(
                            MetadataWorkload.newBuilder().setDir("m").setThreads(4).setFiles(2501))
                        .build(),
                    root))
        .hasMessageStartingWith("workload.threads x workload.files: 10004 files");
    assertThatCode(() -> guards.check(lockFiles(10, 1000), root)).doesNotThrowAnyException();
  }

  @Test
  void aTooLongRunIsRefusedCountingPingPongsWarmUp() {
    assertThatThrownBy(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setHotLock(
                            HotLockWorkload.newBuilder().setFile("f").setDurationMillis(61_000))
                        .build(),
                    root))
        .isInstanceOf(ResourceLimitException.class)
        .hasMessage(
            "workload.duration: 61 s, above this agent's limit of 60 s; shorten it, or raise the"
                + " limit with LOCKSTEP_MAX_DURATION_SECONDS in the agent's environment");
    assertThatThrownBy(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setPingPong(
                            PingPongWorkload.newBuilder()
                                .setFile("f")
                                .setDurationMillis(50_000)
                                .setWarmupMillis(6_000))
                        .build(),
                    root))
        .hasMessageStartingWith("workload.duration: 62 s (with warm-up before and after)");
    assertThatCode(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setHotLock(
                            HotLockWorkload.newBuilder().setFile("f").setDurationMillis(60_000))
                        .build(),
                    root))
        .doesNotThrowAnyException();
  }

  @Test
  void aWriteOrReadThatWouldNotLeaveTheHeadroomFreeIsRefused() {
    long free = ResourceGuards.usableBytes(root);
    WorkloadSpec tooBig =
        WorkloadSpec.newBuilder()
            .setWrite(WriteWorkload.newBuilder().setFile("w").setSizeBytes(free))
            .build();
    assertThatThrownBy(() -> guards.check(tooBig, root))
        .isInstanceOf(ResourceLimitException.class)
        .hasMessageStartingWith("workload.size: " + (free >> 20) + " MiB to lay out, but ")
        .hasMessageContaining("MiB are free under " + root + " and 1 MiB must stay free")
        .hasMessageEndingWith(
            "lower the headroom with LOCKSTEP_FREE_SPACE_HEADROOM_MIB in the agent's environment");
    assertThatThrownBy(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setRead(ReadWorkload.newBuilder().setFile("r").setSizeBytes(free))
                        .build(),
                    root))
        .isInstanceOf(ResourceLimitException.class);
    assertThatCode(
            () ->
                guards.check(
                    WorkloadSpec.newBuilder()
                        .setWrite(WriteWorkload.newBuilder().setFile("w").setSizeBytes(4096))
                        .build(),
                    root))
        .doesNotThrowAnyException();
  }
}

package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.AgentRecord;
import org.junit.jupiter.api.Test;

class LockResourceSettleTest {
  private static final StepNode N1 = new StepNode("node1", null);
  private static final StepNode N2 = new StepNode("node2", null);
  private static final List<StepNode> BOTH = List.of(N1, N2);
  private static final WorkloadSpec PING_PONG =
      WorkloadKind.PING_PONG.spec(
          PingPongWorkload.newBuilder().setLock(LockKind.LOCK_KIND_FCNTL).setProcesses(1).build());

  private static List<AgentRecord> agents(Map<String, String> settings) {
    return List.of(
        TestRuns.agent("node1", "6.1.0", settings, "gfs2"),
        TestRuns.agent("node2", "6.1.0", settings, "gfs2"));
  }

  private static final List<AgentRecord> OWNERSHIP =
      agents(
          Map.of(
              LockResourceSettle.OWNERSHIP, "1",
              LockResourceSettle.AGE, "10000",
              LockResourceSettle.INTERVAL, "5000"));

  @Test
  void aNodeAloneAfterNodesTogetherWaitsForTheResourceToBeDropped() {
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.PING_PONG, PING_PONG, BOTH, List.of(N1), OWNERSHIP))
        .isEqualTo(15_000);
  }

  @Test
  void dlmControldsDefaultsWhenTheAgentsDoNotSayHowLong() {
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.PING_PONG,
                PING_PONG,
                BOTH,
                List.of(N2),
                agents(Map.of(LockResourceSettle.OWNERSHIP, "1"))))
        .isEqualTo(20_000);
  }

  @Test
  void noWaitWithoutOwnershipForFlockFirstStepsMoreNodesOrPerNodeFiles() {
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.PING_PONG,
                PING_PONG,
                BOTH,
                List.of(N1),
                agents(Map.of(LockResourceSettle.OWNERSHIP, "0"))))
        .as("plock_ownership=0: every lock goes through corosync anyway")
        .isZero();
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.PING_PONG, PING_PONG, List.of(), List.of(N1), OWNERSHIP))
        .as("the first step")
        .isZero();
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.PING_PONG, PING_PONG, List.of(N1), List.of(N2), OWNERSHIP))
        .as("after a node alone")
        .isZero();
    assertThat(LockResourceSettle.millis(WorkloadKind.PING_PONG, PING_PONG, BOTH, BOTH, OWNERSHIP))
        .as("nodes together again")
        .isZero();
    WorkloadSpec flock =
        WorkloadKind.HOT_LOCK.spec(
            HotLockWorkload.newBuilder().setLock(LockKind.LOCK_KIND_FLOCK).build());
    assertThat(
            LockResourceSettle.millis(WorkloadKind.HOT_LOCK, flock, BOTH, List.of(N1), OWNERSHIP))
        .as("flock goes through glocks, not dlm_controld")
        .isZero();
    WorkloadSpec ofd =
        WorkloadKind.HOT_LOCK.spec(
            HotLockWorkload.newBuilder().setLock(LockKind.LOCK_KIND_OFD).build());
    assertThat(LockResourceSettle.millis(WorkloadKind.HOT_LOCK, ofd, BOTH, List.of(N1), OWNERSHIP))
        .as("OFD locks are plocks too")
        .isEqualTo(15_000);
    assertThat(
            LockResourceSettle.millis(
                WorkloadKind.LOCK_FILES,
                WorkloadKind.LOCK_FILES.spec(
                    LockFilesWorkload.newBuilder().setLock(LockKind.LOCK_KIND_FCNTL).build()),
                BOTH,
                List.of(N1),
                OWNERSHIP))
        .as("each node its own files")
        .isZero();
  }
}

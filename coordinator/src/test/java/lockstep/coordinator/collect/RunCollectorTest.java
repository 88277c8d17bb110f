package lockstep.coordinator.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.results.RunIds;
import lockstep.coordinator.results.StepIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three real agents on 127.0.0.1 (no TLS: the owner id names the caller). A "coordinator" prepares
 * and starts a step on two of them with a short lease and then goes silent, as a killed one would;
 * the lease ends the runs and removes their files, and a collector with the same owner id assembles
 * the results, naming the node that holds nothing; another owner gets nothing.
 */
class RunCollectorTest {
  private static final String RUN = "20261130-120000-crashed-ab12";

  @RegisterExtension final LoopbackAgentServers servers = LoopbackAgentServers.members(3);

  private void crashedCoordinatorRanAStepOnTheFirstTwoNodes() {
    AgentEnsemble crashed = servers.connectFirst(ChannelSecurity.NONE, 2);
    long startAt = WallClock.nowNanos() + 200_000_000L;
    for (Agent a : crashed.agents()) {
      a.prepare(LoopbackAgentServers.twoNodeWrite(RUN + ".all", 1_000));
      a.start(RUN + ".all", startAt);
    }
    // it says nothing more: the lease ends the runs and removes their files, keeping the results
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                !Files.exists(servers.roots().resolve("n1/lockstep-" + RUN + ".all"))
                    && !Files.exists(servers.roots().resolve("n2/lockstep-" + RUN + ".all")));
  }

  @Test
  void theSameOwnerCollectsEveryNodesResultAndTheNodeHoldingNothingIsNamed() {
    crashedCoordinatorRanAStepOnTheFirstTwoNodes();
    RunRecord run = new RunCollector(servers.connect(ChannelSecurity.NONE)).collect(RUN);

    assertThat(run.status()).isEqualTo(RunCollector.STATUS);
    assertThat(run.runId()).isEqualTo(RUN);
    assertThat(run.name()).isEqualTo("crashed");
    assertThat(run.workloadType()).isEqualTo("write");
    assertThat(run.unit()).isEqualTo("MB/s");
    // the spec the agents ran, typed: run.json records it as it is
    assertThat(run.workload().getWrite().getSizeBytes()).isEqualTo(1L << 20);
    assertThat(run.workload().getWrite().getFile()).isEqualTo("w.{node}");
    assertThat(run.workload().getWrite().getBlockSizeBytes()).isEqualTo(4096);
    assertThat(run.agents()).extracting(a -> a.node()).containsExactly("n1", "n2", "n3");
    assertThat(run.steps()).hasSize(1);
    StepRecord step = run.steps().get(0);
    assertThat(step.id()).isEqualTo("all");
    assertThat(step.kind()).isEqualTo("all");
    assertThat(step.results()).extracting(r -> r.node()).containsExactlyInAnyOrder("n1", "n2");
    // each node either finished its 1 MiB before the lease ran out, or the lease aborted it: both
    // are kept
    assertThat(step.results())
        .allSatisfy(r -> assertThat(r.status()).isIn(RunStatus.OK, RunStatus.ABORTED));
    assertThat(step.intendedStartUnixNanos()).isPositive();
    assertThat(run.errors())
        .anySatisfy(e -> assertThat(e).startsWith("collected by `lockstep collect`"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .isEqualTo(
                        "node n3: holds nothing of run "
                            + RUN
                            + " (cleaned by its coordinator, dropped 15 min after its lease ended,"
                            + " or its agent restarted)"));
  }

  @Test
  void anotherOwnerCollectsNothingAndIsToldWhoseTheRunIs() {
    crashedCoordinatorRanAStepOnTheFirstTwoNodes();
    RunCollector other =
        new RunCollector(
            servers.connect(new ChannelSecurity(null, null, null, null, "someone-else")));
    assertThatThrownBy(() -> other.collect(RUN))
        .isInstanceOfSatisfying(
            RunFailedException.class,
            e -> {
              assertThat(e.lines().get(0))
                  .isEqualTo(
                      "no agent holds a result of run " + RUN + " that this identity may collect");
              assertThat(String.join("\n", e.lines()))
                  .contains("node n1: " + RUN + ".all belongs to owner:")
                  .contains("node n2: " + RUN + ".all belongs to owner:")
                  .doesNotContain(ChannelSecurity.OWNER_ID);
            });
  }

  @Test
  void aRunNoAgentHoldsIsAnErrorNamingEachNode() {
    assertThatThrownBy(
            () ->
                new RunCollector(servers.connect(ChannelSecurity.NONE))
                    .collect("20261130-000000-never-0000"))
        .isInstanceOfSatisfying(
            RunFailedException.class,
            e ->
                assertThat(e.lines())
                    .hasSize(4)
                    .allSatisfy(l -> assertThat(l).contains("20261130-000000-never-0000")));
  }

  @Test
  void stepIdsAndRunIdsAreReadBack() {
    assertThat(StepIds.partOf(RUN + ".solo-n1-r2", RUN)).isTrue();
    assertThat(StepIds.partOf(RUN + "x.all", RUN)).isFalse();
    assertThat(StepIds.stepOf(RUN + ".solo-n1-r2", RUN)).isEqualTo("solo-n1-r2");
    assertThat(RunCollector.nameOf("20261130-134608-my-demo-a2c7")).isEqualTo("my-demo");
    assertThat(RunCollector.nameOf("20261130-134608-my-demo-0a1b2c3d")).isEqualTo("my-demo");
    String made = RunIds.newRunId("x-abcd");
    assertThat(made).matches("\\d{8}-\\d{6}-x-abcd-[0-9a-f]{8}");
    assertThat(RunCollector.nameOf(made)).isEqualTo("x-abcd");
    assertThat(RunCollector.nameOf("adhoc")).isEqualTo("adhoc");
    assertThat(
            WorkloadKind.of(
                    WorkloadSpec.newBuilder().setWrite(WriteWorkload.getDefaultInstance()).build())
                .name())
        .isEqualTo("write");
  }
}

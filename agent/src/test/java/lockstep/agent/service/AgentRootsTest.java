package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.PrepareRequest;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One agent, two roots (two file systems of a node): each call names the one it means. */
class AgentRootsTest {
  @TempDir Path base;
  private InProcessCluster<AgentServer> cluster;
  private Path first;
  private Path second;

  @BeforeEach
  void start() throws Exception {
    cluster =
        InProcessCluster.of(AgentMembers.withSecondRoot())
            .members(1)
            .under(base)
            .directExecutor()
            .start();
    first = cluster.member(0).root().toRealPath();
    second = AgentMembers.secondRoot(first);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private AgentServiceGrpc.AgentServiceBlockingStub call() {
    return AgentServiceGrpc.newBlockingStub(cluster.member(0).channel())
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static PrepareRequest write(String runId, String root) {
    return AgentMembers.smallWrite(runId).toBuilder().setRoot(root).build();
  }

  @Test
  void describeNamesEveryRootAndDescribesTheOneAsked() {
    var d = call().describe(DescribeRequest.newBuilder().setRoot(second.toString()).build());
    assertThat(d.getRoot()).isEqualTo(second.toString());
    assertThat(d.getRootsList()).containsExactly(first.toString(), second.toString());
    assertThat(call().describe(DescribeRequest.getDefaultInstance()).getRoot())
        .isEqualTo(first.toString());
  }

  @Test
  void aRunsFilesGoUnderTheRootItNames() throws Exception {
    call().prepare(write("r2", second.toString()));
    assertThat(second.resolve("lockstep-r2/w.n1")).exists();
    assertThat(first.resolve("lockstep-r2")).doesNotExist();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r2").build());
    call().cleanup(CleanupRequest.newBuilder().setRunId("r2").setRunDirOnly(true).build());
    assertThat(second.resolve("lockstep-r2")).doesNotExist();
    try (var left = Files.walk(second)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("the run's manifest is gone too")
          .noneMatch(n -> n.contains("r2"));
    }

    call().prepare(write("r1", ""));
    assertThat(first.resolve("lockstep-r1/w.n1")).as("no root: the first").exists();
  }

  @Test
  void aRootTheAgentDoesNotServeIsRefusedNamingItsRoots() {
    assertThatThrownBy(() -> call().prepare(write("r3", base.resolve("elsewhere").toString())))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .contains("root: '" + base.resolve("elsewhere") + "' is not one of node n1's")
                  .contains(first.toString(), second.toString());
            });
    assertThatThrownBy(
            () ->
                call()
                    .describe(
                        DescribeRequest.newBuilder()
                            .setRoot(base.resolve("elsewhere").toString())
                            .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    assertThat(second.resolve("lockstep-r3")).doesNotExist();
    assertThat(first.resolve("lockstep-r3")).doesNotExist();
  }
}

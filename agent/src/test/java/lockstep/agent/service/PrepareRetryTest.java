package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.AbortRequest;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.GetResultRequest;
import lockstep.agent.v1.KeepAliveRequest;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.agent.v1.ListRunsRequest;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.PrepareResponse;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.agent.workload.CleanupReport;
import lockstep.agent.workload.Workload;
import lockstep.agent.workload.WorkloadFactory;
import lockstep.common.AgentHeaders;
import lockstep.common.WallClock;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator that retries a Prepare while its first one is still preparing: the retry is refused
 * as busy, and the run the first one prepares still belongs to that coordinator alone.
 */
class PrepareRetryTest {
  @TempDir Path base;

  /** Counted down when the first workload's prepare has begun; it then waits for {@link #go}. */
  private final CountDownLatch preparing = new CountDownLatch(1);

  private final CountDownLatch go = new CountDownLatch(1);
  private final ExecutorService first = Executors.newSingleThreadExecutor();
  private InProcessCluster<AgentServer> cluster;

  @BeforeEach
  void start() throws Exception {
    cluster =
        InProcessCluster.of(
                AgentMembers.building(
                    (spec, paths, nodes, by) ->
                        new HeldPrepare(spec, paths, nodes, by, preparing, go)))
            .members(1)
            .under(base)
            .start();
  }

  @AfterEach
  void stop() {
    go.countDown();
    first.shutdownNow();
    cluster.close();
  }

  /** A coordinator known to the agent by its owner id (no TLS, no token: loopback). */
  private AgentServiceGrpc.AgentServiceBlockingStub coordinator(String ownerId) {
    Metadata headers = new Metadata();
    headers.put(AgentHeaders.OWNER, ownerId);
    return AgentServiceGrpc.newBlockingStub(cluster.member(0).channel())
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @Test
  void aPrepareRetriedWhileTheFirstStillPreparesLeavesTheRunToItsOwner() throws Exception {
    PrepareRequest prepare =
        PrepareRequest.newBuilder()
            .setRunId("r1")
            .setWorkload(
                WorkloadSpec.newBuilder()
                    .setWrite(
                        WriteWorkload.newBuilder()
                            .setFile("w.{node}")
                            .setSizeBytes(8192)
                            .setBlockSizeBytes(4096)))
            .build();
    CompletableFuture<PrepareResponse> firstPrepare =
        CompletableFuture.supplyAsync(() -> coordinator("alice").prepare(prepare), first);
    assertThat(preparing.await(30, TimeUnit.SECONDS)).as("the first prepare began").isTrue();

    assertRefused(
        () -> coordinator("alice").prepare(prepare),
        Status.Code.FAILED_PRECONDITION,
        "node n1 is busy with run r1 (being prepared for ");

    go.countDown();
    assertThat(firstPrepare.get(30, TimeUnit.SECONDS).getState())
        .isEqualTo(RunState.RUN_STATE_PREPARED);
    String refused = "the run belongs to owner:";
    assertRefused(
        () ->
            coordinator("mallory")
                .start(
                    StartRequest.newBuilder()
                        .setRunId("r1")
                        .setStartAtUnixNanos(WallClock.nowNanos() + 1_000_000_000L)
                        .build()),
        Status.Code.PERMISSION_DENIED,
        refused);
    assertRefused(
        () -> coordinator("mallory").abort(AbortRequest.newBuilder().setRunId("r1").build()),
        Status.Code.PERMISSION_DENIED,
        refused);
    assertRefused(
        () ->
            coordinator("mallory").getResult(GetResultRequest.newBuilder().setRunId("r1").build()),
        Status.Code.PERMISSION_DENIED,
        refused);
    assertThat(
            coordinator("alice")
                .getResult(GetResultRequest.newBuilder().setRunId("r1").build())
                .getState())
        .isEqualTo(RunState.RUN_STATE_PREPARED);
    assertThat(
            coordinator("alice")
                .cleanup(CleanupRequest.newBuilder().setRunId("r1").build())
                .getFilesRemoved())
        .isEqualTo(1);
  }

  /**
   * Another caller's KeepAlive renews nothing of a run it does not own: the run's lease runs out as
   * if no one had called, and the other caller is told nothing of it.
   */
  @Test
  void anotherCallersKeepAliveDoesNotKeepARunAlive() throws Exception {
    go.countDown(); // prepares at once
    coordinator("alice")
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r2")
                .setLeaseMillis(300)
                .setWorkload(
                    WorkloadSpec.newBuilder()
                        .setWrite(
                            WriteWorkload.newBuilder()
                                .setFile("w.{node}")
                                .setSizeBytes(8192)
                                .setBlockSizeBytes(4096)))
                .build());
    KeepAliveRequest beat = KeepAliveRequest.newBuilder().addRunIds("r2").build();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      KeepAliveResponse mallory = coordinator("mallory").keepAlive(beat);
      assertThat(mallory.getExpiredRunIdsList()).as("mallory hears nothing of r2").isEmpty();
      // ListRuns renews nothing (GetResult, a call about the run, would)
      if (coordinator("alice").listRuns(ListRunsRequest.getDefaultInstance()).getRunsList().stream()
          .anyMatch(r -> r.getRunId().equals("r2") && r.getState() == RunState.RUN_STATE_ABORTED)) {
        break;
      }
      assertThat(System.nanoTime()).as("r2's lease ran out within 20 s").isLessThan(end);
      Thread.sleep(100); // mallory's beats, ten times its lease's rate
    }
    assertThat(coordinator("alice").keepAlive(beat).getExpiredRunIdsList()).containsExactly("r2");
  }

  private static void assertRefused(Runnable call, Status.Code code, String text) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(code);
              assertThat(e.getStatus().getDescription()).contains(text);
            });
  }

  /** The workload a spec asks for, whose prepare waits until the test lets it go on. */
  private static final class HeldPrepare implements Workload {
    private final Workload workload;
    private final CountDownLatch preparing;
    private final CountDownLatch go;

    HeldPrepare(
        WorkloadSpec spec,
        RootedPaths paths,
        int stepNodes,
        CallDeadline readyBy,
        CountDownLatch preparing,
        CountDownLatch go) {
      this.workload = WorkloadFactory.create(spec, paths, stepNodes, readyBy);
      this.preparing = preparing;
      this.go = go;
    }

    @Override
    public void prepare() {
      preparing.countDown();
      try {
        if (!go.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never let the prepare go on");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      workload.prepare();
    }

    @Override
    public String opName() {
      return workload.opName();
    }

    @Override
    public List<String> paths() {
      return workload.paths();
    }

    @Override
    public List<Long> workerPids() {
      return workload.workerPids();
    }

    @Override
    public long opsSoFar() {
      return workload.opsSoFar();
    }

    @Override
    public long bytesSoFar() {
      return workload.bytesSoFar();
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
      return workload.run(startAtUnixNanos);
    }

    @Override
    public void abort() {
      workload.abort();
    }

    @Override
    public CleanupReport cleanup() {
      return workload.cleanup();
    }
  }
}

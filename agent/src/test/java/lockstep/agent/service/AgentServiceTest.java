package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.agent.run.Leases;
import lockstep.agent.run.RunException;
import lockstep.agent.v1.AbortRequest;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.FinishRequest;
import lockstep.agent.v1.GetResultRequest;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.KeepAliveRequest;
import lockstep.agent.v1.ListRunsRequest;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.WatchProgressRequest;
import lockstep.agent.v1.WatchProgressResponse;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WallClock;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent service over an in-process channel: phases, idempotency and errors as Status. */
class AgentServiceTest {
  @TempDir Path base;
  private Path root;

  private InProcessCluster<AgentServer> cluster;
  private AgentServiceGrpc.AgentServiceBlockingStub stub;

  @BeforeEach
  void start() throws Exception {
    cluster =
        InProcessCluster.of(AgentMembers.plain()).members(1).under(base).directExecutor().start();
    root = cluster.member(0).root();
    stub = AgentServiceGrpc.newBlockingStub(cluster.member(0).channel());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private AgentServiceGrpc.AgentServiceBlockingStub call() {
    return stub.withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** Where run {@code runId}'s path {@code name} is: in the run's own directory below the root. */
  private Path in(String runId, String name) {
    return root.resolve("lockstep-" + runId).resolve(name);
  }

  private static WorkloadSpec write(String file, long size) {
    return WorkloadSpec.newBuilder()
        .setWrite(
            WriteWorkload.newBuilder().setFile(file).setSizeBytes(size).setBlockSizeBytes(4096))
        .build();
  }

  @Test
  void describesItself() {
    var d = call().describe(DescribeRequest.getDefaultInstance());
    assertThat(d.getNodeName()).isEqualTo("n1");
    assertThat(d.getCapabilitiesList())
        .contains("workload:write", "workload:lock-files", "lock:ofd");
    assertThat(d.getFsType()).isNotEmpty();
  }

  @Test
  void aWatchOnlyRunSamplesTheNodeUntilFinishedAndCreatesNothing() throws Exception {
    PrepareRequest watch =
        PrepareRequest.newBuilder()
            .setRunId("w1")
            .setWorkload(write("w.{node}", 4 << 20))
            .setWatchOnly(true)
            .build();
    var prepared = call().prepare(watch);
    assertThat(prepared.getPathsList()).isEmpty();
    assertThat(prepared.getWorkerPidsList()).isEmpty();
    assertThat(call().prepare(watch).getState())
        .as("a repeated Prepare is the same run")
        .isEqualTo(RunState.RUN_STATE_PREPARED);
    assertStatus(
        () -> call().finish(FinishRequest.newBuilder().setRunId("w1").build()),
        Status.Code.FAILED_PRECONDITION,
        "was not started");
    long startAt = WallClock.nowNanos() + 100_000_000;
    call().start(StartRequest.newBuilder().setRunId("w1").setStartAtUnixNanos(startAt).build());
    // runs until told: well past what a 4 MiB write would take
    Thread.sleep(1_500);
    assertThat(call().getResult(GetResultRequest.newBuilder().setRunId("w1").build()).getState())
        .isEqualTo(RunState.RUN_STATE_RUNNING);
    long finishedAt = WallClock.nowNanos();
    assertThat(call().finish(FinishRequest.newBuilder().setRunId("w1").build()).getState())
        .isEqualTo(RunState.RUN_STATE_SUCCEEDED);

    WorkloadResult r =
        call().getResult(GetResultRequest.newBuilder().setRunId("w1").build()).getResult();
    assertThat(r.getOps()).isZero();
    assertThat(r.getBytes()).isZero();
    assertThat(r.getOpName()).isEqualTo("watch");
    assertThat(r.getEndUnixNanos()).isBetween(finishedAt, finishedAt + 5_000_000_000L);
    // a sample every 100 ms from the start instant to the finish (about 1.4 s)
    assertThat(r.getTelemetry().getSamplesCount()).isGreaterThanOrEqualTo(10);
    assertThat(root.resolve("lockstep-w1")).doesNotExist();
    assertThat(call().cleanup(CleanupRequest.newBuilder().setRunId("w1").build()).getFilesRemoved())
        .isZero();
    call().cleanup(CleanupRequest.newBuilder().setRunId("w1").setRunDirOnly(true).build());
    try (var files = Files.list(root)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("nothing under the root, not even a manifest")
          .noneMatch(n -> n.contains("w1") || n.startsWith(".lockstep-runs"));
    }
  }

  @Test
  void finishEndsOnlyAWatchOnlyRun() {
    call()
        .prepare(PrepareRequest.newBuilder().setRunId("r9").setWorkload(write("f", 4096)).build());
    call()
        .start(
            StartRequest.newBuilder()
                .setRunId("r9")
                .setStartAtUnixNanos(WallClock.nowNanos() + 50_000_000)
                .build());
    assertStatus(
        () -> call().finish(FinishRequest.newBuilder().setRunId("r9").build()),
        Status.Code.INVALID_ARGUMENT,
        "Finish ends only a watch-only run");
  }

  @Test
  void runsThroughEveryPhaseAndCleansUp() {
    var prepared =
        call()
            .prepare(
                PrepareRequest.newBuilder()
                    .setRunId("r1")
                    .setWorkload(write("w.{node}", 4 << 20))
                    .build());
    assertThat(prepared.getState()).isEqualTo(RunState.RUN_STATE_PREPARED);
    assertThat(prepared.getPathsList()).containsExactly("lockstep-r1/w.n1");

    long startAt = WallClock.nowNanos() + 100_000_000;
    assertThat(
            call()
                .start(
                    StartRequest.newBuilder().setRunId("r1").setStartAtUnixNanos(startAt).build())
                .getState())
        .isIn(RunState.RUN_STATE_ARMED, RunState.RUN_STATE_RUNNING);
    // a repeated Start with the same instant is accepted
    call().start(StartRequest.newBuilder().setRunId("r1").setStartAtUnixNanos(startAt).build());

    List<WatchProgressResponse> progress = new ArrayList<>();
    call()
        .watchProgress(
            WatchProgressRequest.newBuilder().setRunId("r1").setIntervalMillis(50).build())
        .forEachRemaining(progress::add);
    assertThat(progress).isNotEmpty();
    assertThat(progress.get(progress.size() - 1).getState())
        .isEqualTo(RunState.RUN_STATE_SUCCEEDED);

    var result = call().getResult(GetResultRequest.newBuilder().setRunId("r1").build());
    assertThat(result.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(result.getResult().getBytes()).isEqualTo(4 << 20);
    assertThat(result.getResult().getIntendedStartUnixNanos()).isEqualTo(startAt);
    assertThat(result.getResult().getFirstOpUnixNanos()).isGreaterThanOrEqualTo(startAt);
    assertThat(in("r1", "w.n1")).exists();

    var cleaned = call().cleanup(CleanupRequest.newBuilder().setRunId("r1").build());
    assertThat(cleaned.getFilesRemoved()).isEqualTo(1);
    assertThat(in("r1", "w.n1")).doesNotExist();
    assertThat(root.resolve("lockstep-r1"))
        .as("kept for the step's other nodes until run_dir_only")
        .isDirectory();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r1").setRunDirOnly(true).build());
    assertThat(root.resolve("lockstep-r1"))
        .as("the run's directory goes after its files")
        .doesNotExist();
    assertThat(root.resolve(".lockstep-runs.n1")).as("and its manifest").doesNotExist();
    // cleanup is idempotent; the run is gone afterwards
    assertThat(call().cleanup(CleanupRequest.newBuilder().setRunId("r1").build()).getFilesRemoved())
        .isZero();
    assertStatus(
        () -> call().getResult(GetResultRequest.newBuilder().setRunId("r1").build()),
        Status.Code.NOT_FOUND,
        "no run r1 on node n1");
  }

  /** Starts the prepared run {@code leadNanos} from now and watches its progress until it ends. */
  private void startAndWatchToTheEnd(String runId, long leadNanos) {
    call()
        .start(
            StartRequest.newBuilder()
                .setRunId(runId)
                .setStartAtUnixNanos(WallClock.nowNanos() + leadNanos)
                .build());
    call()
        .watchProgress(
            WatchProgressRequest.newBuilder().setRunId(runId).setIntervalMillis(50).build())
        .forEachRemaining(p -> {});
  }

  private WorkloadResult runToEnd(String runId, boolean telemetryOff) {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId(runId)
                .setWorkload(write("t.{node}", 1 << 20))
                .setTelemetryOff(telemetryOff)
                .build());
    startAndWatchToTheEnd(runId, 300_000_000);
    WorkloadResult r =
        call().getResult(GetResultRequest.newBuilder().setRunId(runId).build()).getResult();
    call().cleanup(CleanupRequest.newBuilder().setRunId(runId).build());
    return r;
  }

  @Test
  void aResultCarriesTheResourceSamplesOfTheRunAndItsBaseline() {
    WorkloadResult r = runToEnd("rt1", false);
    assertThat(r.getWorkers()).isEqualTo(1);
    assertThat(r.hasTelemetry()).isTrue();
    assertThat(r.getTelemetry().getBaselineList()).isNotEmpty();
    assertThat(r.getTelemetry().getSamplesList()).isNotEmpty();
    // the first sample (also the baseline's last) is scheduled just before the instant, the rest
    // after it
    assertThat(r.getTelemetry().getBaseline(r.getTelemetry().getBaselineCount() - 1))
        .isEqualTo(r.getTelemetry().getSamples(0));
    assertThat(r.getTelemetry().getSamplesList().subList(1, r.getTelemetry().getSamplesCount()))
        .allMatch(s -> s.getAtUnixNanos() >= r.getIntendedStartUnixNanos());
    assertThat(r.getTelemetry().getSamples(r.getTelemetry().getSamplesCount() - 1).getAtUnixNanos())
        .isGreaterThanOrEqualTo(r.getEndUnixNanos());
    assertThat(r.getTelemetry().getCpuCount()).isPositive();
  }

  @Test
  void telemetryOffTakesNoSamples() {
    WorkloadResult r = runToEnd("rt2", true);
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.hasTelemetry()).isFalse();
  }

  @Test
  void theLastProgressSampleLeavesWhenTheRunEndsNotAtTheNextTick() {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r2")
                .setWorkload(write("w.{node}", 4096))
                .build());
    call()
        .start(
            StartRequest.newBuilder()
                .setRunId("r2")
                .setStartAtUnixNanos(WallClock.nowNanos() + 50_000_000)
                .build());
    // one tick now, the next in 60 s: the stream must still end with the run
    List<WatchProgressResponse> progress = new ArrayList<>();
    stub.withDeadlineAfter(30, TimeUnit.SECONDS)
        .watchProgress(
            WatchProgressRequest.newBuilder().setRunId("r2").setIntervalMillis(60_000).build())
        .forEachRemaining(progress::add);
    assertThat(progress.get(progress.size() - 1).getState())
        .isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    call().cleanup(CleanupRequest.newBuilder().setRunId("r2").build());
  }

  @Test
  void prepareIsIdempotentPerRunIdButRefusesAnotherWorkload() {
    var req = PrepareRequest.newBuilder().setRunId("r2").setWorkload(write("a", 8192)).build();
    call().prepare(req);
    call().prepare(req);
    assertStatus(
        () -> call().prepare(req.toBuilder().setWorkload(write("b", 8192)).build()),
        Status.Code.ALREADY_EXISTS,
        "another workload");
    call().cleanup(CleanupRequest.newBuilder().setRunId("r2").build());
    assertThat(in("r2", "a")).doesNotExist();
  }

  @Test
  void refusesAPathLeavingTheRootNamingTheField() {
    assertStatus(
        () ->
            call()
                .prepare(
                    PrepareRequest.newBuilder()
                        .setRunId("r3")
                        .setWorkload(write("../escape", 8192))
                        .build()),
        Status.Code.INVALID_ARGUMENT,
        "workload.file");
    assertThat(root.getParent().resolve("escape")).doesNotExist();
  }

  @Test
  void aPrepareThatFailsIsReportedWithErrnoAndForgotten() throws Exception {
    Files.createDirectories(in("r4", "taken"));
    // a write creates its file with O_EXCL: what is already there is refused, not opened
    assertStatus(
        () ->
            call()
                .prepare(
                    PrepareRequest.newBuilder()
                        .setRunId("r4")
                        .setWorkload(write("taken", 8192))
                        .build()),
        Status.Code.FAILED_PRECONDITION,
        "open lockstep-r4/taken: EEXIST");
    assertStatus(
        () -> call().getResult(GetResultRequest.newBuilder().setRunId("r4").build()),
        Status.Code.NOT_FOUND,
        "r4");
    assertThat(in("r4", "taken")).isDirectory();
  }

  @Test
  void anotherRunsLeftoversNeverShareAPathWithThisRun() throws Exception {
    // what another run (another agent on this shared root, or a killed one) left at the same
    // template
    Files.createDirectories(in("other", "."));
    Files.writeString(in("other", "same.n1"), "theirs");
    runToEndWriting("mine", "same.{node}");
    assertThat(Files.readString(in("other", "same.n1"))).isEqualTo("theirs");
    assertThat(root.resolve("lockstep-mine")).doesNotExist();
  }

  @Test
  void aDirectoryKeptForRunDirOnlyIsRemovedAtTheNextPrepareWhenThatCallNeverCame() {
    var prepared =
        call()
            .prepare(
                PrepareRequest.newBuilder()
                    .setRunId("r7")
                    .setWorkload(write("w.{node}", 8192))
                    .build());
    assertThat(prepared.getPathsList()).hasSize(1);
    call().cleanup(CleanupRequest.newBuilder().setRunId("r7").build());
    assertThat(root.resolve("lockstep-r7")).isEmptyDirectory();
    // its coordinator died before run_dir_only; every node of its step had cleaned by then
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r8")
                .setWorkload(write("w.{node}", 8192))
                .build());
    assertThat(root.resolve("lockstep-r7")).doesNotExist();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r8").build());
    call().cleanup(CleanupRequest.newBuilder().setRunId("r8").setRunDirOnly(true).build());
    assertThat(root).isEmptyDirectory();
  }

  private void runToEndWriting(String runId, String file) {
    var prepared =
        call()
            .prepare(
                PrepareRequest.newBuilder().setRunId(runId).setWorkload(write(file, 8192)).build());
    assertThat(prepared.getPathsList())
        .containsExactly("lockstep-" + runId + "/" + file.replace("{node}", "n1"));
    startAndWatchToTheEnd(runId, 50_000_000);
    assertThat(call().getResult(GetResultRequest.newBuilder().setRunId(runId).build()).getState())
        .isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    call().cleanup(CleanupRequest.newBuilder().setRunId(runId).build());
    call().cleanup(CleanupRequest.newBuilder().setRunId(runId).setRunDirOnly(true).build());
  }

  @Test
  void startNeedsAPreparedRun() {
    assertStatus(
        () ->
            call().start(StartRequest.newBuilder().setRunId("nope").setStartAtUnixNanos(1).build()),
        Status.Code.NOT_FOUND,
        "no run nope");
  }

  @Test
  void aRunWhoseLeaseRunsOutIsAbortedItsFilesRemovedAndItsResultKept() throws Exception {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r6")
                .setLeaseMillis(200)
                .setWorkload(write("leased", 8192))
                .build());
    assertThat(in("r6", "leased")).exists();
    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(root.resolve("lockstep-r6")));
    var result = call().getResult(GetResultRequest.newBuilder().setRunId("r6").build());
    assertThat(result.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(result.getResult().getError().getMessage()).contains("lease ran out");
    var beat = call().keepAlive(KeepAliveRequest.newBuilder().addRunIds("r6").build());
    assertThat(beat.getExpiredRunIdsList()).containsExactly("r6");
    assertThat(beat.getAbortedRunIdsList()).as("its lease ended it, not its owner").isEmpty();
    // an expired run holds nothing: another run may be prepared
    call()
        .prepare(
            PrepareRequest.newBuilder().setRunId("r7").setWorkload(write("next", 8192)).build());
    call().cleanup(CleanupRequest.newBuilder().setRunId("r7").build());
  }

  @Test
  void listRunsShowsARunEndedByItsLeaseWithWhyAndWhenUntilItIsCleanedUp() throws Exception {
    assertThat(call().listRuns(ListRunsRequest.getDefaultInstance()).getRunsList()).isEmpty();
    long before = System.currentTimeMillis();
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r11")
                .setLeaseMillis(200)
                .setWorkload(write("listed", 8192))
                .build());
    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(in("r11", "listed")));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                call()
                        .listRuns(ListRunsRequest.getDefaultInstance())
                        .getRuns(0)
                        .getCleanedAtUnixMillis()
                    > 0);
    RunSummary s = call().listRuns(ListRunsRequest.getDefaultInstance()).getRuns(0);
    assertThat(s.getRunId()).isEqualTo("r11");
    assertThat(s.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(s.getAbortReason()).contains("lease ran out");
    assertThat(s.getYours()).isTrue();
    assertThat(s.getPreparedAtUnixMillis()).isBetween(before, s.getCleanedAtUnixMillis());
    assertThat(s.getWorkload()).isEqualTo(write("listed", 8192));
    call().cleanup(CleanupRequest.newBuilder().setRunId("r11").build());
    assertThat(call().listRuns(ListRunsRequest.getDefaultInstance()).getRunsList()).isEmpty();
  }

  @Test
  void aFinishedRunKeepsItsResultAfterItsLeaseButNotItsFiles() throws Exception {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r8")
                .setLeaseMillis(300)
                .setWorkload(write("done", 8192))
                .build());
    call()
        .start(
            StartRequest.newBuilder()
                .setRunId("r8")
                .setStartAtUnixNanos(WallClock.nowNanos() + 10_000_000)
                .build());
    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(in("r8", "done")));
    var result = call().getResult(GetResultRequest.newBuilder().setRunId("r8").build());
    assertThat(result.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(result.getResult().getBytes()).isEqualTo(8192);
  }

  @Test
  void anAbortThatRemovesFilesKeepsTheResultWithItsReasonAndTellsTheHeartbeatWhy()
      throws Exception {
    prepareHotLock("r12", LockKind.LOCK_KIND_FCNTL, 60_000);
    call()
        .start(
            StartRequest.newBuilder()
                .setRunId("r12")
                .setStartAtUnixNanos(WallClock.nowNanos() + 50_000_000)
                .build());
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                call()
                        .getResult(GetResultRequest.newBuilder().setRunId("r12").build())
                        .getResult()
                        .getOps()
                    > 0);
    var aborted =
        call()
            .abort(
                AbortRequest.newBuilder()
                    .setRunId("r12")
                    .setReason("by its owner")
                    .setRemoveFiles(true)
                    .build());
    assertThat(aborted.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(aborted.getFilesRemoved()).isEqualTo(1);
    assertThat(aborted.getLeftoversList()).isEmpty();
    assertThat(root.resolve("lockstep-r12")).doesNotExist();
    var beat = call().keepAlive(KeepAliveRequest.newBuilder().addRunIds("r12").build());
    assertThat(beat.getExpiredRunIdsList()).containsExactly("r12");
    assertThat(beat.getAbortedRunIdsList()).containsExactly("r12");
    var result =
        call().getResult(GetResultRequest.newBuilder().setRunId("r12").build()).getResult();
    assertThat(result.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    // the workers it killed are not the error: the abort is
    assertThat(result.getError().getMessage()).isEqualTo("by its owner");
    assertThat(result.getOps()).isPositive();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r12").build());
  }

  /** One worker process taking {@code lock} on one file over and over for {@code millis}. */
  private void prepareHotLock(String runId, LockKind lock, int millis) {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId(runId)
                .setWorkload(
                    WorkloadSpec.newBuilder()
                        .setHotLock(
                            HotLockWorkload.newBuilder()
                                .setFile("hot.dat")
                                .setProcesses(1)
                                .setLock(lock)
                                .setDurationMillis(millis)))
                .build());
  }

  @Test
  void aWorkersSeriesEndsWithItsLastOpNotWhenTheAgentHadItsResult() {
    prepareHotLock("r13", LockKind.LOCK_KIND_FLOCK, 700);
    startAndWatchToTheEnd("r13", 100_000_000);
    WorkloadResult r =
        call().getResult(GetResultRequest.newBuilder().setRunId("r13").build()).getResult();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r13").build());
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    // the worker's count stands still from its last op until the agent has its result: a sample
    // from that gap would read as a stall at the end of every run
    assertThat(r.getSeriesList()).hasSizeGreaterThan(2);
    // it ends at the last op, or at the end of the 700 ms if that op ended just before it
    long end = Math.max(r.getEndUnixNanos(), r.getIntendedStartUnixNanos() + 700_000_000L);
    var last = r.getSeries(r.getSeriesCount() - 1);
    assertThat(last.getAtUnixNanos()).isEqualTo(end);
    assertThat(last.getOps()).isEqualTo(r.getOps());
    assertThat(r.getSeriesList().subList(0, r.getSeriesCount() - 1))
        .allMatch(p -> p.getAtUnixNanos() < end);
  }

  @Test
  void keepAliveHoldsARunBeyondItsLease() throws Exception {
    call()
        .prepare(
            PrepareRequest.newBuilder()
                .setRunId("r9")
                .setLeaseMillis(2_000)
                .setWorkload(write("kept", 8192))
                .build());
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5_000);
    while (System.nanoTime() < until) {
      assertThat(
              call()
                  .keepAlive(
                      KeepAliveRequest.newBuilder().addRunIds("r9").addRunIds("unknown").build())
                  .getExpiredRunIdsList())
          .isEmpty();
      java.util.concurrent.locks.LockSupport.parkNanos(
          TimeUnit.MILLISECONDS.toNanos(200)); // the coordinator's pace
    }
    assertThat(in("r9", "kept")).exists();
    call().cleanup(CleanupRequest.newBuilder().setRunId("r9").build());
  }

  @Test
  void aSecondRunIsRefusedNamingTheRunInProgressAndWhoPreparedIt() {
    call()
        .prepare(
            PrepareRequest.newBuilder().setRunId("first").setWorkload(write("one", 8192)).build());
    Runnable second =
        () ->
            call()
                .prepare(
                    PrepareRequest.newBuilder()
                        .setRunId("second")
                        .setWorkload(write("two", 8192))
                        .build());
    assertStatus(
        second,
        Status.Code.FAILED_PRECONDITION,
        "node n1 is busy with run first (PREPARED, prepared by ");
    assertStatus(
        second,
        Status.Code.FAILED_PRECONDITION,
        "Z, owner anonymous); one run at a time per agent");
    assertThat(in("second", "two")).doesNotExist();
    call().cleanup(CleanupRequest.newBuilder().setRunId("first").build());
    call()
        .prepare(
            PrepareRequest.newBuilder().setRunId("second").setWorkload(write("two", 8192)).build());
    call().cleanup(CleanupRequest.newBuilder().setRunId("second").build());
  }

  @Test
  void anUnboundedOrHugeLeaseIsNotGranted() {
    assertStatus(
        () ->
            call()
                .prepare(
                    PrepareRequest.newBuilder()
                        .setRunId("r10")
                        .setLeaseMillis(Leases.MAX_LEASE_MILLIS + 1)
                        .setWorkload(write("huge", 8192))
                        .build()),
        Status.Code.INVALID_ARGUMENT,
        "above the agent's maximum of 600000 ms");
    assertThat(Leases.effective(0)).isEqualTo(Leases.DEFAULT_LEASE_MILLIS);
  }

  @Test
  void everyKindOfRefusalOfTheRunLayerHasItsStatus() {
    assertThat(List.<Class<?>>copyOf(AgentService.CODES.keySet()))
        .containsExactlyInAnyOrder(RunException.class.getPermittedSubclasses());
  }

  private static void assertStatus(Runnable call, Status.Code code, String text) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(code);
              assertThat(e.getStatus().getDescription()).contains(text);
            });
  }
}

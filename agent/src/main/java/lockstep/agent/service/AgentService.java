package lockstep.agent.service;

import static io.grpc.stub.ServerCalls.asyncServerStreamingCall;
import static io.grpc.stub.ServerCalls.asyncUnaryCall;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import lockstep.agent.env.BootId;
import lockstep.agent.env.NodeEnvironment;
import lockstep.agent.fs.MountInfo;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.run.AgentConfig;
import lockstep.agent.run.Run;
import lockstep.agent.run.RunException;
import lockstep.agent.run.RunRegistry;
import lockstep.agent.security.CallerIdentity;
import lockstep.agent.v1.AbortRequest;
import lockstep.agent.v1.AbortResponse;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.FinishRequest;
import lockstep.agent.v1.FinishResponse;
import lockstep.agent.v1.GetResultRequest;
import lockstep.agent.v1.GetResultResponse;
import lockstep.agent.v1.KeepAliveRequest;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.agent.v1.ListRunsRequest;
import lockstep.agent.v1.ListRunsResponse;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.PrepareResponse;
import lockstep.agent.v1.ProbeClockRequest;
import lockstep.agent.v1.ProbeClockResponse;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.StartResponse;
import lockstep.agent.v1.WatchProgressRequest;
import lockstep.agent.v1.WatchProgressResponse;
import lockstep.agent.workload.CleanupReport;
import lockstep.common.DaemonThreads;
import lockstep.common.Version;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The gRPC face of the agent: maps each call onto the {@link RunRegistry}. A unary call's handler
 * is a function from its request to its response, bound to its method by {@link #bindService}; what
 * one throws becomes the call's status in one place ({@code respond}).
 */
final class AgentService implements BindableService {
  static final List<String> CAPABILITIES =
      Stream.concat(
              WorkloadKind.names().stream().map(n -> "workload:" + n),
              Stream.of("lock:fcntl", "lock:flock", "lock:ofd"))
          .toList();
  private static final Logger LOG = LogManager.getLogger(AgentService.class);
  private static final int MIN_INTERVAL_MILLIS = 50;
  private static final int DEFAULT_INTERVAL_MILLIS = 250;

  private final RunRegistry registry;
  private final ScheduledExecutorService streams =
      Executors.newScheduledThreadPool(1, DaemonThreads.named("progress-streams"));

  private volatile int clockProbePort;
  private volatile int listenPort;

  AgentService(RunRegistry registry) {
    this.registry = registry;
  }

  /** The UDP port of this agent's {@link ClockProbeResponder}, told to coordinators by Describe. */
  void listenPort(int port) {
    this.listenPort = Math.max(0, port);
  }

  void clockProbePort(int port) {
    this.clockProbePort = port;
  }

  @Override
  public ServerServiceDefinition bindService() {
    return ServerServiceDefinition.builder(AgentServiceGrpc.getServiceDescriptor())
        .addMethod(AgentServiceGrpc.getDescribeMethod(), unary(this::describe))
        .addMethod(AgentServiceGrpc.getProbeClockMethod(), asyncUnaryCall(this::probeClock))
        .addMethod(AgentServiceGrpc.getPrepareMethod(), unary(this::prepare))
        .addMethod(AgentServiceGrpc.getStartMethod(), unary(this::start))
        .addMethod(
            AgentServiceGrpc.getWatchProgressMethod(),
            asyncServerStreamingCall(this::watchProgress))
        .addMethod(AgentServiceGrpc.getGetResultMethod(), unary(this::getResult))
        .addMethod(AgentServiceGrpc.getAbortMethod(), unary(this::abort))
        .addMethod(AgentServiceGrpc.getFinishMethod(), unary(this::finish))
        .addMethod(AgentServiceGrpc.getCleanupMethod(), unary(this::cleanup))
        .addMethod(AgentServiceGrpc.getKeepAliveMethod(), unary(this::keepAlive))
        .addMethod(AgentServiceGrpc.getListRunsMethod(), unary(this::listRuns))
        .build();
  }

  private DescribeResponse describe(DescribeRequest request) {
    AgentConfig config = registry.config();
    Path root = config.root(request.getRoot());
    DescribeResponse.Builder b =
        DescribeResponse.newBuilder()
            .setNodeName(config.nodeName())
            .setVersion(Version.get())
            .addAllCapabilities(CAPABILITIES)
            .setRoot(root.toString())
            .addAllRoots(config.roots().stream().map(Path::toString).toList())
            .setHostname(hostname())
            .setPid(ProcessHandle.current().pid())
            .setBootId(BootId.current())
            .setClockProbePort(clockProbePort)
            .setListenPort(listenPort)
            .setStepsPrepared(registry.stepsPrepared());
    MountInfo.of(root)
        .ifPresent(
            m ->
                b.setFsType(m.fsType())
                    .setMountPoint(m.mountPoint())
                    .setMountOptions(m.options())
                    .setMountSource(m.source()));
    NodeEnvironment env = NodeEnvironment.capture(root);
    b.setKernel(env.kernel())
        .setCpuCount(env.cpuCount())
        .setCpuModel(env.cpuModel())
        .setMemoryBytes(env.memoryBytes())
        .setBlockDevice(env.blockDevice())
        .putAllClusterSettings(env.clusterSettings());
    return b.build();
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "";
    }
  }

  private void probeClock(ProbeClockRequest request, StreamObserver<ProbeClockResponse> response) {
    long received = WallClock.nowNanos();
    ProbeClockResponse.Builder b =
        ProbeClockResponse.newBuilder().setReceiveUnixNanos(received).setAgentUnixNanos(received);
    response.onNext(b.setSendUnixNanos(WallClock.nowNanos()).build());
    response.onCompleted();
  }

  private PrepareResponse prepare(PrepareRequest request) {
    Run run =
        registry.prepare(request, PeerAddress.current(), AuthInterceptor.caller(), callDeadline());
    return PrepareResponse.newBuilder()
        .setState(run.state())
        .addAllPaths(run.prepared().workload().paths())
        .addAllWorkerPids(run.prepared().workload().workerPids())
        .build();
  }

  /**
   * The current call's deadline (the coordinator's, propagated by gRPC), in the run layer's form.
   */
  private static CallDeadline callDeadline() {
    Deadline deadline = Context.current().getDeadline();
    return deadline == null
        ? CallDeadline.NONE
        : CallDeadline.in(deadline.timeRemaining(TimeUnit.NANOSECONDS));
  }

  private StartResponse start(StartRequest request) {
    Run run = ownedRun(request.getRunId(), "start");
    return StartResponse.newBuilder().setState(run.arm(request.getStartAtUnixNanos())).build();
  }

  private void watchProgress(
      WatchProgressRequest request, StreamObserver<WatchProgressResponse> response) {
    Run run;
    try {
      run = ownedRun(request.getRunId(), "watch-progress");
    } catch (RuntimeException e) {
      response.onError(statusOf(e).asRuntimeException());
      return;
    }
    int interval =
        request.getIntervalMillis() == 0
            ? DEFAULT_INTERVAL_MILLIS
            : Math.max(MIN_INTERVAL_MILLIS, request.getIntervalMillis());
    ServerCallStreamObserver<WatchProgressResponse> call =
        (ServerCallStreamObserver<WatchProgressResponse>) response;
    AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
    call.setOnCancelHandler(() -> cancel(task));
    AtomicBoolean ended = new AtomicBoolean();
    Runnable tick =
        () -> {
          try {
            // the stream does not renew the lease: KeepAlive does (a stream outlives its
            // coordinator briefly)
            RunState state = run.state();
            synchronized (call) {
              if (call.isCancelled() || ended.get()) {
                return;
              }
              call.onNext(
                  WatchProgressResponse.newBuilder()
                      .setSample(run.progress())
                      .setState(state)
                      .build());
              if (Run.isFinal(state)) {
                ended.set(true);
                call.onCompleted();
                cancel(task);
              }
            }
          } catch (RuntimeException e) {
            LOG.debug("progress stream for {} ended: {}", request.getRunId(), e.toString());
            cancel(task);
          }
        };
    task.set(streams.scheduleAtFixedRate(tick, 0, interval, TimeUnit.MILLISECONDS));
    // The last sample goes out when the run ends, not at the next tick: a short step's
    // coordinator does not wait up to a whole interval to learn that it is done.
    run.whenFinished(
        () -> {
          try {
            streams.execute(tick);
          } catch (RejectedExecutionException e) {
            LOG.debug("progress stream for {}: agent closing", request.getRunId());
          }
        });
  }

  /** The run, once the caller is known to own it; {@code call} names the call in a refusal. */
  private Run ownedRun(String runId, String call) {
    return registry.get(runId, AuthInterceptor.caller(), call);
  }

  private static void cancel(AtomicReference<ScheduledFuture<?>> task) {
    ScheduledFuture<?> f = task.get();
    if (f != null) {
      f.cancel(false);
    }
  }

  private GetResultResponse getResult(GetResultRequest request) {
    Run run = ownedRun(request.getRunId(), "get-result");
    return GetResultResponse.newBuilder().setState(run.state()).setResult(run.result()).build();
  }

  private AbortResponse abort(AbortRequest request) {
    Run run = ownedRun(request.getRunId(), "abort");
    if (!request.getRemoveFiles()) {
      return AbortResponse.newBuilder().setState(run.abort(request.getReason())).build();
    }
    CleanupReport report = run.cleanupOnRequest(request.getReason());
    return AbortResponse.newBuilder()
        .setState(run.state())
        .setFilesRemoved(report.filesRemoved())
        .addAllLeftovers(report.leftovers())
        .build();
  }

  private FinishResponse finish(FinishRequest request) {
    return FinishResponse.newBuilder()
        .setState(ownedRun(request.getRunId(), "finish").finish())
        .build();
  }

  private CleanupResponse cleanup(CleanupRequest request) {
    if (request.getRunDirOnly()) {
      registry.removeRunDir(request.getRunId(), AuthInterceptor.caller());
      return CleanupResponse.getDefaultInstance();
    }
    CleanupReport report = registry.cleanup(request.getRunId(), AuthInterceptor.caller());
    return CleanupResponse.newBuilder()
        .setFilesRemoved(report.filesRemoved())
        .addAllLeftovers(report.leftovers())
        .build();
  }

  private KeepAliveResponse keepAlive(KeepAliveRequest request) {
    KeepAliveResponse.Builder b = KeepAliveResponse.newBuilder();
    for (Run ended : registry.keepAlive(request.getRunIdsList(), AuthInterceptor.caller())) {
      b.addExpiredRunIds(ended.runId());
      if (ended.cleanedOnRequest()) {
        b.addAbortedRunIds(ended.runId());
      }
    }
    return b.build();
  }

  private ListRunsResponse listRuns(ListRunsRequest request) {
    String caller = AuthInterceptor.caller();
    ListRunsResponse.Builder b = ListRunsResponse.newBuilder();
    for (Run run : registry.list()) {
      Run.Prepared prepared = run.prepared();
      String owner = prepared.owner();
      b.addRuns(
          RunSummary.newBuilder()
              .setRunId(prepared.runId())
              .setOwner(CallerIdentity.shown(owner))
              .setYours(owner.equals(caller))
              .setState(run.state())
              .setPreparedBy(prepared.by())
              .setPreparedAtUnixMillis(prepared.atMillis())
              .setCleanedAtUnixMillis(run.cleanedAtMillis())
              .setAbortReason(run.abortReason() == null ? "" : run.abortReason())
              .setWorkload(prepared.spec()));
    }
    return b.build();
  }

  void close() {
    streams.shutdownNow();
  }

  /** The status each refusal of the run layer answers with; its message is the description. */
  static final Map<Class<? extends RunException>, Status.Code> CODES =
      Map.of(
          RunException.Invalid.class, Status.Code.INVALID_ARGUMENT,
          RunException.NotFound.class, Status.Code.NOT_FOUND,
          RunException.NotOwner.class, Status.Code.PERMISSION_DENIED,
          RunException.Busy.class, Status.Code.FAILED_PRECONDITION,
          RunException.Conflict.class, Status.Code.ALREADY_EXISTS,
          RunException.IllegalTransition.class, Status.Code.FAILED_PRECONDITION,
          RunException.PrepareFailed.class, Status.Code.FAILED_PRECONDITION,
          RunException.NoResources.class, Status.Code.RESOURCE_EXHAUSTED,
          RunException.Stopping.class, Status.Code.UNAVAILABLE);

  /**
   * What a call that threw {@code e} answers: a refusal of the run layer its status with its
   * message, anything else INTERNAL (logged: a bug); the description fitted to a trailer.
   */
  static Status statusOf(RuntimeException e) {
    Status.Code code = CODES.get(e.getClass());
    if (code != null) {
      return fitted(Status.fromCode(code).withDescription(e.getMessage()));
    }
    LOG.error("call failed", e);
    return fitted(Status.INTERNAL.withDescription(e.toString()));
  }

  /**
   * Longest status description sent: it travels in an HTTP/2 trailer, whose list is capped at 8
   * KiB.
   */
  static final int MAX_DESCRIPTION = 2000;

  /**
   * The status with its description shortened in the middle to fit a trailer (long paths would
   * not).
   */
  static Status fitted(Status status) {
    String d = status.getDescription();
    if (d == null || d.length() <= MAX_DESCRIPTION) {
      return status;
    }
    int keep = MAX_DESCRIPTION / 2 - 40;
    return status.withDescription(
        d.substring(0, keep)
            + " …("
            + (d.length() - 2 * keep)
            + " characters left out)… "
            + d.substring(d.length() - keep));
  }

  /** A unary call answered by {@code handler} through {@link #respond}. */
  private static <Q, R> ServerCallHandler<Q, R> unary(Function<Q, R> handler) {
    return asyncUnaryCall((request, response) -> respond(response, () -> handler.apply(request)));
  }

  private static <T> void respond(StreamObserver<T> response, Supplier<T> call) {
    T value;
    try {
      value = call.get();
    } catch (RuntimeException e) {
      response.onError(statusOf(e).asRuntimeException());
      return;
    }
    response.onNext(value);
    response.onCompleted();
  }
}

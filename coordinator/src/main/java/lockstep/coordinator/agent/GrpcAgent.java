package lockstep.coordinator.agent;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
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
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.StartResponse;
import lockstep.agent.v1.WatchProgressRequest;
import lockstep.agent.v1.WatchProgressResponse;
import lockstep.common.DaemonThreads;
import lockstep.common.WallClock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * An {@link Agent} over gRPC. Every call carries the deadline of the {@link CallScope} it runs in
 * (a phase's budget: the ensemble runs each agent's share of a fan-out in one); a call made outside
 * any scope with a deadline gets {@link #UNSCOPED}.
 */
public final class GrpcAgent implements Agent {
  /** The deadline of a call made outside any scope that has one (a test's, a one-off's). */
  static final Duration UNSCOPED = Duration.ofSeconds(30);

  /** gRPC keepalive on the channel (grpc-java's minimum ping interval is 10 s). */
  static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);

  static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(5);

  /** A UDP clock probe unanswered for this long counts as lost. */
  static final Duration UDP_PROBE_TIMEOUT = Duration.ofMillis(250);

  /**
   * Lost UDP probes in a row after which this agent is probed over gRPC for good (UDP filtered).
   */
  static final int UDP_LOST_IN_A_ROW = 3;

  private static final Logger LOG = LogManager.getLogger(GrpcAgent.class);

  /** Where an asynchronous call's error is explained (a thread only while one is). */
  private static final Executor REFUSALS =
      Executors.newCachedThreadPool(DaemonThreads.named("agent-errors"));

  private final String address;

  /** The agent's root its runs use (the inventory's root:), "" for its default. */
  private final String root;

  private final Channel channel;
  private final ManagedChannel owned;
  private final ChannelSecurity security;
  private final Object probing = new Object();
  private UdpClockProbe udp;
  private int udpLost;

  /** UDP ports still to try once the one in use went unanswered, in order. */
  private final Deque<Integer> udpPortsLeft = new ArrayDeque<>();

  /** Talks to an agent over a channel the caller owns (tests pass an in-process channel). */
  public GrpcAgent(String address, Channel channel) {
    this(address, "", channel);
  }

  /** As above, for runs under {@code root}, one of the agent's roots ("" for its default). */
  public GrpcAgent(String address, String root, Channel channel) {
    this.address = address;
    this.root = root;
    this.channel = channel;
    this.owned = null;
    this.security = null;
  }

  /** Opens a plaintext channel to host:port (or any gRPC target such as dns:///name:port). */
  public static GrpcAgent connect(String address) {
    return connect(address, ChannelSecurity.NONE);
  }

  /** Opens a channel to {@code address} with {@code security} (TLS, token, owner id). */
  public static GrpcAgent connect(String address, ChannelSecurity security) {
    return connect(address, "", security);
  }

  /**
   * As above, for runs under {@code root}: one of the agent's roots (an agent may serve several
   * file systems, {@code lockstep-agent --root A --root B}), "" for its default.
   */
  public static GrpcAgent connect(String address, String root, ChannelSecurity security) {
    ManagedChannel channel = security.open(address);
    // Connect (and, with TLS, handshake) now, while the other agents' channels do the same,
    // rather than inside the first call's deadline.
    channel.getState(true);
    return new GrpcAgent(address, root, security.decorate(channel), channel, security);
  }

  private GrpcAgent(
      String address,
      String root,
      Channel channel,
      ManagedChannel owned,
      ChannelSecurity security) {
    this.address = address;
    this.root = root;
    this.channel = channel;
    this.owned = owned;
    this.security = security;
  }

  /**
   * The scope's deadline travels with the call (gRPC's Context); {@link #UNSCOPED} without. An
   * asynchronous call's answer is handled on the thread it arrives on ({@code direct}): it only
   * completes a future.
   */
  private static CallOptions options(boolean direct) {
    CallOptions o =
        Context.current().getDeadline() == null
            ? CallOptions.DEFAULT.withDeadlineAfter(UNSCOPED.toMillis(), TimeUnit.MILLISECONDS)
            : CallOptions.DEFAULT;
    return direct ? o.withExecutor(Runnable::run) : o;
  }

  private <T> T call(String name, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw AgentCallException.of(address, name, e.getStatus(), security);
    }
  }

  /** A unary call, waited for on this thread. */
  private <Q, R> R blocking(String name, MethodDescriptor<Q, R> method, Q request) {
    return call(
        name, () -> ClientCalls.blockingUnaryCall(channel, method, options(false), request));
  }

  /** A unary call whose answer completes the future; no thread waits for it. */
  private <Q, R> CompletableFuture<R> async(String name, MethodDescriptor<Q, R> method, Q request) {
    CompletableFuture<R> answer = new CompletableFuture<>();
    try {
      ClientCalls.asyncUnaryCall(
          channel.newCall(method, options(true)),
          request,
          new StreamObserver<>() {
            @Override
            public void onNext(R r) {
              answer.complete(r);
            }

            @Override
            public void onError(Throwable t) {
              failed(answer, name, t);
            }

            @Override
            public void onCompleted() {
              // onNext completed it; a unary call without an answer ends in onError
            }
          });
    } catch (RuntimeException e) {
      answer.completeExceptionally(failure(name, e));
    }
    return answer;
  }

  /**
   * Fails {@code answer} with the call's error, explained off the transport's thread: explaining a
   * refused connection may ask the agent whether it speaks TLS ({@link ConnectionRefusals}), a
   * handshake that must not hold the thread every answer arrives on.
   */
  private void failed(CompletableFuture<?> answer, String name, Throwable t) {
    if (security == null || Status.fromThrowable(t).getCode() != Status.Code.UNAVAILABLE) {
      answer.completeExceptionally(failure(name, t)); // nothing to ask the agent
      return;
    }
    try {
      REFUSALS.execute(() -> answer.completeExceptionally(failure(name, t)));
    } catch (RejectedExecutionException e) {
      answer.completeExceptionally(failure(name, t));
    }
  }

  private AgentCallException failure(String name, Throwable t) {
    return t instanceof AgentCallException e
        ? e
        : AgentCallException.of(address, name, Status.fromThrowable(t), security);
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public DescribeResponse describe() {
    return described(blocking("describe", AgentServiceGrpc.getDescribeMethod(), describeRequest()));
  }

  @Override
  public CompletableFuture<DescribeResponse> describeAsync() {
    return async("describe", AgentServiceGrpc.getDescribeMethod(), describeRequest())
        .thenApply(this::described);
  }

  private DescribeRequest describeRequest() {
    return DescribeRequest.newBuilder().setRoot(root).build();
  }

  /** The request under this agent's root, unless the request names one itself. */
  private PrepareRequest rooted(PrepareRequest request) {
    return root.isEmpty() || !request.getRoot().isEmpty()
        ? request
        : request.toBuilder().setRoot(root).build();
  }

  /** What a Describe tells of the agent's clock probe port: the UDP probes from then on. */
  private DescribeResponse described(DescribeResponse d) {
    synchronized (probing) {
      if (udp == null && udpPortsLeft.isEmpty()) {
        udpPortsLeft.addAll(
            UdpClockProbe.portsToTry(address, d.getClockProbePort(), d.getListenPort()));
        openNextUdpPort();
      }
    }
    return d;
  }

  /** Opens the next UDP port to probe, if any is left; null {@link #udp} when none is. */
  private void openNextUdpPort() {
    while (udp == null && !udpPortsLeft.isEmpty()) {
      int port = udpPortsLeft.removeFirst();
      try {
        udp = UdpClockProbe.open(address, port).orElse(null);
        udpLost = 0;
      } catch (IOException | RuntimeException e) {
        LOG.warn("agent {}: UDP clock probe port {} unusable: {}", address, port, e.toString());
      }
    }
  }

  /**
   * Over UDP when the agent's Describe offered a clock probe port (tens of microseconds on
   * loopback), else, or once UDP probes went unanswered {@link #UDP_LOST_IN_A_ROW} times, over the
   * ProbeClock RPC (milliseconds).
   */
  @Override
  public ClockSample probeClock() {
    synchronized (probing) {
      if (udp != null) {
        try {
          ClockSample sample = udp.probe(UDP_PROBE_TIMEOUT);
          udpLost = 0;
          return sample;
        } catch (IOException e) {
          if (++udpLost >= UDP_LOST_IN_A_ROW) {
            LOG.warn(
                "agent {}: {} UDP clock probes in a row to port {} unanswered ({}); {}",
                address,
                udpLost,
                udp.port(),
                e.getMessage(),
                udpPortsLeft.isEmpty()
                    ? "probing over gRPC from now on"
                    : "trying UDP port " + udpPortsLeft.peekFirst());
            udp.close();
            udp = null;
            openNextUdpPort();
          }
        }
      }
    }
    return probeClockOverGrpc();
  }

  /** Whether clock probes go over UDP (else the ProbeClock RPC). */
  public boolean probesClockOverUdp() {
    synchronized (probing) {
      return udp != null;
    }
  }

  /** The UDP port clock probes go to, 0 when they go over gRPC. */
  public int clockProbeUdpPort() {
    synchronized (probing) {
      return udp == null ? 0 : udp.port();
    }
  }

  ClockSample probeClockOverGrpc() {
    return call(
        "clock probe",
        () -> {
          CallOptions options = options(false);
          long t0 = System.nanoTime(); // before the wall clock: see UdpClockProbe
          long wall = WallClock.nowNanos();
          ProbeClockResponse r =
              ClientCalls.blockingUnaryCall(
                  channel,
                  AgentServiceGrpc.getProbeClockMethod(),
                  options,
                  ProbeClockRequest.getDefaultInstance());
          long rtt = System.nanoTime() - t0;
          if (r.getReceiveUnixNanos() == 0 || r.getSendUnixNanos() == 0) {
            return new ClockSample(wall, rtt, r.getAgentUnixNanos());
          }
          return new ClockSample(wall, rtt, r.getReceiveUnixNanos(), r.getSendUnixNanos());
        });
  }

  @Override
  public PrepareResponse prepare(PrepareRequest request) {
    return blocking("prepare", AgentServiceGrpc.getPrepareMethod(), rooted(request));
  }

  @Override
  public CompletableFuture<PrepareResponse> prepareAsync(PrepareRequest request) {
    return async("prepare", AgentServiceGrpc.getPrepareMethod(), rooted(request));
  }

  private static StartRequest startRequest(String runId, long startAtAgentUnixNanos) {
    return StartRequest.newBuilder()
        .setRunId(runId)
        .setStartAtUnixNanos(startAtAgentUnixNanos)
        .build();
  }

  @Override
  public StartResponse start(String runId, long startAtAgentUnixNanos) {
    return blocking(
        "start", AgentServiceGrpc.getStartMethod(), startRequest(runId, startAtAgentUnixNanos));
  }

  @Override
  public CompletableFuture<StartResponse> startAsync(String runId, long startAtAgentUnixNanos) {
    return async(
        "start", AgentServiceGrpc.getStartMethod(), startRequest(runId, startAtAgentUnixNanos));
  }

  @Override
  public CompletableFuture<RunState> watchProgress(
      String runId, int intervalMillis, Consumer<WatchProgressResponse> onSample) {
    CompletableFuture<RunState> last = new CompletableFuture<>();
    try {
      ClientCall<WatchProgressRequest, WatchProgressResponse> call =
          channel.newCall(AgentServiceGrpc.getWatchProgressMethod(), options(true));
      ClientCalls.asyncServerStreamingCall(
          call,
          WatchProgressRequest.newBuilder()
              .setRunId(runId)
              .setIntervalMillis(intervalMillis)
              .build(),
          new StreamObserver<>() {
            private RunState state = RunState.RUN_STATE_UNSPECIFIED;

            @Override
            public void onNext(WatchProgressResponse r) {
              state = r.getState();
              onSample.accept(r);
            }

            @Override
            public void onError(Throwable t) {
              failed(last, "watch progress", t);
            }

            @Override
            public void onCompleted() {
              last.complete(state);
            }
          });
    } catch (RuntimeException e) {
      last.completeExceptionally(failure("watch progress", e));
    }
    return last;
  }

  private static GetResultRequest getResultRequest(String runId) {
    return GetResultRequest.newBuilder().setRunId(runId).build();
  }

  @Override
  public GetResultResponse getResult(String runId) {
    return blocking("get result", AgentServiceGrpc.getGetResultMethod(), getResultRequest(runId));
  }

  @Override
  public CompletableFuture<GetResultResponse> getResultAsync(String runId) {
    return async("get result", AgentServiceGrpc.getGetResultMethod(), getResultRequest(runId));
  }

  private static AbortRequest abortRequest(String runId, String reason, boolean removeFiles) {
    return AbortRequest.newBuilder()
        .setRunId(runId)
        .setReason(reason)
        .setRemoveFiles(removeFiles)
        .build();
  }

  @Override
  public AbortResponse abort(String runId, String reason, boolean removeFiles) {
    return blocking(
        "abort", AgentServiceGrpc.getAbortMethod(), abortRequest(runId, reason, removeFiles));
  }

  @Override
  public CompletableFuture<AbortResponse> abortAsync(String runId, String reason) {
    return async("abort", AgentServiceGrpc.getAbortMethod(), abortRequest(runId, reason, false));
  }

  @Override
  public CompletableFuture<FinishResponse> finishAsync(String runId) {
    return async(
        "finish",
        AgentServiceGrpc.getFinishMethod(),
        FinishRequest.newBuilder().setRunId(runId).build());
  }

  private static CleanupRequest cleanupRequest(String runId, boolean runDirOnly) {
    return CleanupRequest.newBuilder().setRunId(runId).setRunDirOnly(runDirOnly).build();
  }

  @Override
  public CleanupResponse cleanup(String runId) {
    return blocking("cleanup", AgentServiceGrpc.getCleanupMethod(), cleanupRequest(runId, false));
  }

  @Override
  public CompletableFuture<CleanupResponse> cleanupAsync(String runId) {
    return async("cleanup", AgentServiceGrpc.getCleanupMethod(), cleanupRequest(runId, false));
  }

  @Override
  public CleanupResponse removeRunDir(String runId) {
    return blocking("cleanup", AgentServiceGrpc.getCleanupMethod(), cleanupRequest(runId, true));
  }

  @Override
  public CompletableFuture<CleanupResponse> removeRunDirAsync(String runId) {
    return async("cleanup", AgentServiceGrpc.getCleanupMethod(), cleanupRequest(runId, true));
  }

  /**
   * Without a thread waiting for the answer: a heartbeat to every agent of a large step is a few
   * microseconds of the coordinator's time each, not a blocked thread each.
   */
  @Override
  public CompletableFuture<KeepAliveResponse> keepAlive(List<String> runIds) {
    return async(
        "keep alive",
        AgentServiceGrpc.getKeepAliveMethod(),
        KeepAliveRequest.newBuilder().addAllRunIds(runIds).build());
  }

  @Override
  public ListRunsResponse listRuns() {
    return blocking(
        "list runs", AgentServiceGrpc.getListRunsMethod(), ListRunsRequest.getDefaultInstance());
  }

  /**
   * Waits until the plaintext agent at {@code address} reports SERVING on its health service (gRPC
   * waits for the connection), then describes it, all within {@code budget}; the channel is closed
   * after.
   */
  public static DescribeResponse awaitServing(String address, Duration budget) {
    ManagedChannel channel = NettyChannelBuilder.forTarget(address).usePlaintext().build();
    CallScope scope = CallScope.open().within(budget);
    try {
      return scope.run(
          () -> {
            try {
              HealthGrpc.newBlockingStub(channel)
                  .withWaitForReady()
                  .check(HealthCheckRequest.getDefaultInstance());
            } catch (StatusRuntimeException e) {
              throw new AgentCallException(address, "health check", e.getStatus());
            }
            return new GrpcAgent(address, channel).describe();
          });
    } finally {
      scope.close();
      channel.shutdownNow();
    }
  }

  /** Closes the channel; no call is left that needs to finish (a lost agent's were cancelled). */
  @Override
  public void close() {
    synchronized (probing) {
      if (udp != null) {
        udp.close();
        udp = null;
      }
    }
    if (owned != null) {
      owned.shutdownNow();
      try {
        owned.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        owned.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}

package lockstep.coordinator.agent;

import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import lockstep.agent.v1.AbortRequest;
import lockstep.agent.v1.AbortResponse;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.DescribeResponse;
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
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.StartResponse;
import lockstep.agent.v1.WatchProgressRequest;
import lockstep.agent.v1.WatchProgressResponse;
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

  private final String address;
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
    this.address = address;
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
    ManagedChannel channel = security.open(address);
    // Connect (and, with TLS, handshake) now, while the other agents' channels do the same,
    // rather than inside the first call's deadline.
    channel.getState(true);
    return new GrpcAgent(address, security.decorate(channel), channel, security);
  }

  private GrpcAgent(
      String address, Channel channel, ManagedChannel owned, ChannelSecurity security) {
    this.address = address;
    this.channel = channel;
    this.owned = owned;
    this.security = security;
  }

  /** The scope's deadline travels with the call (gRPC's Context); {@link #UNSCOPED} without. */
  private AgentServiceGrpc.AgentServiceBlockingStub stub() {
    AgentServiceGrpc.AgentServiceBlockingStub s = AgentServiceGrpc.newBlockingStub(channel);
    return Context.current().getDeadline() == null
        ? s.withDeadlineAfter(UNSCOPED.toMillis(), TimeUnit.MILLISECONDS)
        : s;
  }

  private <T> T call(String name, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw AgentCallException.of(address, name, e.getStatus(), security);
    }
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public DescribeResponse describe() {
    DescribeResponse d =
        call("describe", () -> stub().describe(DescribeRequest.getDefaultInstance()));
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
          var s = stub();
          long t0 = System.nanoTime(); // before the wall clock: see UdpClockProbe
          long wall = WallClock.nowNanos();
          ProbeClockResponse r = s.probeClock(ProbeClockRequest.getDefaultInstance());
          long rtt = System.nanoTime() - t0;
          if (r.getReceiveUnixNanos() == 0 || r.getSendUnixNanos() == 0) {
            return new ClockSample(wall, rtt, r.getAgentUnixNanos());
          }
          return new ClockSample(wall, rtt, r.getReceiveUnixNanos(), r.getSendUnixNanos());
        });
  }

  @Override
  public PrepareResponse prepare(PrepareRequest request) {
    return call("prepare", () -> stub().prepare(request));
  }

  @Override
  public StartResponse start(String runId, long startAtAgentUnixNanos) {
    return call(
        "start",
        () ->
            stub()
                .start(
                    StartRequest.newBuilder()
                        .setRunId(runId)
                        .setStartAtUnixNanos(startAtAgentUnixNanos)
                        .build()));
  }

  @Override
  public Iterator<WatchProgressResponse> watchProgress(String runId, int intervalMillis) {
    Iterator<WatchProgressResponse> it =
        call(
            "watch progress",
            () ->
                stub()
                    .watchProgress(
                        WatchProgressRequest.newBuilder()
                            .setRunId(runId)
                            .setIntervalMillis(intervalMillis)
                            .build()));
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return call("watch progress", it::hasNext);
      }

      @Override
      public WatchProgressResponse next() {
        return call("watch progress", it::next);
      }
    };
  }

  @Override
  public GetResultResponse getResult(String runId) {
    return call(
        "get result",
        () -> stub().getResult(GetResultRequest.newBuilder().setRunId(runId).build()));
  }

  @Override
  public AbortResponse abort(String runId, String reason, boolean removeFiles) {
    return call(
        "abort",
        () ->
            stub()
                .abort(
                    AbortRequest.newBuilder()
                        .setRunId(runId)
                        .setReason(reason)
                        .setRemoveFiles(removeFiles)
                        .build()));
  }

  @Override
  public CleanupResponse cleanup(String runId) {
    return cleanup(runId, false);
  }

  @Override
  public CleanupResponse removeRunDir(String runId) {
    return cleanup(runId, true);
  }

  private CleanupResponse cleanup(String runId, boolean runDirOnly) {
    return call(
        "cleanup",
        () ->
            stub()
                .cleanup(
                    CleanupRequest.newBuilder().setRunId(runId).setRunDirOnly(runDirOnly).build()));
  }

  /**
   * Without a thread waiting for the answer: a heartbeat to every agent of a large step is a few
   * microseconds of the coordinator's time each, not a blocked thread each.
   */
  @Override
  public CompletableFuture<KeepAliveResponse> keepAlive(List<String> runIds) {
    CompletableFuture<KeepAliveResponse> answer = new CompletableFuture<>();
    AgentServiceGrpc.AgentServiceStub s =
        AgentServiceGrpc.newStub(channel).withExecutor(Runnable::run); // only completes `answer`
    if (Context.current().getDeadline() == null) {
      s = s.withDeadlineAfter(UNSCOPED.toMillis(), TimeUnit.MILLISECONDS);
    }
    s.keepAlive(
        KeepAliveRequest.newBuilder().addAllRunIds(runIds).build(),
        new StreamObserver<>() {
          @Override
          public void onNext(KeepAliveResponse r) {
            answer.complete(r);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(
                AgentCallException.of(address, "keep alive", Status.fromThrowable(t), security));
          }

          @Override
          public void onCompleted() {
            // onNext completed it; a unary call without an answer ends in onError
          }
        });
    return answer;
  }

  @Override
  public ListRunsResponse listRuns() {
    return call("list runs", () -> stub().listRuns(ListRunsRequest.getDefaultInstance()));
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

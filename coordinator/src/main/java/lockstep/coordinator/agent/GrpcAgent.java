package lockstep.coordinator.agent;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
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

/** An {@link Agent} over gRPC, with a deadline on every call. */
public final class GrpcAgent implements Agent {
  static final Duration SHORT = Duration.ofSeconds(5);

  /**
   * Describe is the first call: its deadline also covers connecting, the TLS handshake and the
   * node's environment read by a just-started agent (seconds on a busy, cold JVM).
   */
  static final Duration DESCRIBE = Duration.ofSeconds(20);

  // Long calls: a frozen or dead agent is noticed sooner by the step's heartbeat (StepGuard),
  // which cancels its calls; these only bound an agent that answers heartbeats but not the call.
  static final Duration PREPARE = Duration.ofMinutes(3);
  static final Duration CLEANUP = Duration.ofMinutes(2);

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

  private AgentServiceGrpc.AgentServiceBlockingStub stub(Duration deadline) {
    return AgentServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
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
        call("describe", () -> stub(DESCRIBE).describe(DescribeRequest.getDefaultInstance()));
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
          var s = stub(SHORT);
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
    return call("prepare", () -> stub(PREPARE).prepare(request));
  }

  @Override
  public StartResponse start(String runId, long startAtAgentUnixNanos) {
    return call(
        "start",
        () ->
            stub(SHORT)
                .start(
                    StartRequest.newBuilder()
                        .setRunId(runId)
                        .setStartAtUnixNanos(startAtAgentUnixNanos)
                        .build()));
  }

  @Override
  public Iterator<WatchProgressResponse> watchProgress(
      String runId, int intervalMillis, long timeoutMillis) {
    Iterator<WatchProgressResponse> it =
        call(
            "watch progress",
            () ->
                stub(Duration.ofMillis(timeoutMillis))
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
        () -> stub(SHORT).getResult(GetResultRequest.newBuilder().setRunId(runId).build()));
  }

  @Override
  public AbortResponse abort(String runId, String reason, boolean removeFiles) {
    return call(
        "abort",
        () ->
            stub(removeFiles ? CLEANUP : SHORT)
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

  /** Removing only the run directory is quick; a whole run's files may take a while. */
  private CleanupResponse cleanup(String runId, boolean runDirOnly) {
    return call(
        "cleanup",
        () ->
            stub(runDirOnly ? SHORT : CLEANUP)
                .cleanup(
                    CleanupRequest.newBuilder().setRunId(runId).setRunDirOnly(runDirOnly).build()));
  }

  @Override
  public KeepAliveResponse keepAlive(List<String> runIds, long deadlineMillis) {
    return call(
        "keep alive",
        () ->
            AgentServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS)
                .keepAlive(KeepAliveRequest.newBuilder().addAllRunIds(runIds).build()));
  }

  @Override
  public ListRunsResponse listRuns() {
    return call("list runs", () -> stub(SHORT).listRuns(ListRunsRequest.getDefaultInstance()));
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

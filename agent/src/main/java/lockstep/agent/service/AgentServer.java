package lockstep.agent.service;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;
import io.grpc.ServerInterceptors;
import io.grpc.ServerTransportFilter;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import lockstep.agent.metrics.AgentMetrics;
import lockstep.agent.process.SpareWorkers;
import lockstep.agent.run.AgentConfig;
import lockstep.agent.run.Rehearsal;
import lockstep.agent.run.Run;
import lockstep.agent.run.RunRegistry;
import lockstep.agent.security.AgentSecurity;
import lockstep.agent.telemetry.ResourceSampler;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.common.WorkloadKind;

/**
 * The agent's gRPC server around any {@link ServerBuilder}: Netty in production, in-process in
 * tests. Serves the agent service and the standard health service.
 */
public final class AgentServer {
  private final Server server;
  private final RunRegistry registry;
  private final AgentService service;
  private final HealthStatusManager health = new HealthStatusManager();
  private ClockProbeResponder clockProbes;
  private AgentMetrics metrics;

  /**
   * Largest request the agent reads; a larger one ends RESOURCE_EXHAUSTED before the service sees
   * it.
   */
  public static final int MAX_INBOUND_BYTES = 1 << 20;

  public AgentServer(ServerBuilder<?> builder, AgentConfig config) {
    this(builder, config, AgentSecurity.NONE);
  }

  /**
   * The agent service behind {@code security}'s interceptor (token check, caller identity); health
   * stays open.
   */
  public AgentServer(ServerBuilder<?> builder, AgentConfig config, AgentSecurity security) {
    this(builder, new RunRegistry(config), security);
  }

  /** As above, serving the runs of {@code registry} (which the server closes when it stops). */
  public AgentServer(ServerBuilder<?> builder, RunRegistry registry, AgentSecurity security) {
    this.registry = registry;
    this.service = new AgentService(registry);
    // A clock probe is answered on the transport thread itself: one thread hand-off less
    // between the agent reading its clock and the answer leaving, so less to be uncertain about.
    builder.callExecutor(
        new ServerCallExecutorSupplier() {
          @Override
          public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata metadata) {
            return AgentServiceGrpc.getProbeClockMethod()
                    .getFullMethodName()
                    .equals(call.getMethodDescriptor().getFullMethodName())
                ? Runnable::run
                : null;
          }
        });
    // requests are small (the largest is a Prepare's workload): refuse anything bigger before it is
    // read
    builder.maxInboundMessageSize(MAX_INBOUND_BYTES);
    this.server =
        builder
            .addTransportFilter(
                new ServerTransportFilter() {
                  @Override
                  public void transportTerminated(Attributes transport) {
                    if (transport != null) {
                      registry.peerGone(PeerAddress.of(transport));
                    }
                  }
                })
            .addService(
                ServerInterceptors.intercept(
                    service, new PeerAddress(), new AuthInterceptor(security.token())))
            .addService(health.getHealthService())
            .build();
  }

  public AgentServer start() throws IOException {
    server.start();
    service.listenPort(server.getPort());
    health.setStatus("", ServingStatus.SERVING);
    health.setStatus(AgentServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    return this;
  }

  /**
   * Answers clock probes over UDP on {@code host} (the address the gRPC server listens on), {@code
   * port} (0 = any) and tells coordinators the port in Describe; without it they probe with the
   * ProbeClock RPC.
   */
  public AgentServer startClockProbes(String host, int port) throws IOException {
    clockProbes = ClockProbeResponder.start(host, port);
    service.clockProbePort(clockProbes.port());
    return this;
  }

  /**
   * Serves Prometheus metrics on {@code host:port} ({@code --metrics}; port 0 picks one, see {@link
   * AgentMetrics#port}), fed from the runs this server holds; stopped with the server.
   */
  public AgentMetrics startMetrics(String nodeName, String host, int port) throws IOException {
    ResourceSampler idle =
        new ResourceSampler(
            Path.of("/"), registry.blockDevice(), () -> List.of(ProcessHandle.current().pid()));
    AgentMetrics m =
        new AgentMetrics(
            nodeName, () -> registry.list().stream().map(Run::view).toList(), idle::sample);
    registry.onFinished(
        r -> m.finished(r.runId(), WorkloadKind.of(r.prepared().spec()).name(), r.result()));
    metrics = m.start(host, port);
    return m;
  }

  /** The UDP clock probe port, 0 before {@link #startClockProbes}. */
  public int clockProbePort() {
    return clockProbes == null ? 0 : clockProbes.port();
  }

  /** Rehearses a step on tmpfs now; the first Prepare waits for it ({@link Rehearsal}). */
  public AgentServer rehearse(String nodeName) {
    registry.rehearsedBy(Rehearsal.start(nodeName));
    return this;
  }

  public int port() {
    return server.getPort();
  }

  /** Stops serving, then ends every run (workers killed, files removed). */
  public void stop() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    if (clockProbes != null) {
      clockProbes.close();
    }
    if (metrics != null) {
      metrics.close();
    }
    service.close();
    registry.close();
    SpareWorkers.closeAll();
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }
}

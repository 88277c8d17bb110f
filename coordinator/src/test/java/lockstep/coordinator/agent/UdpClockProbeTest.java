package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.agent.service.ClockProbeResponder;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.ProbeClockRequest;
import lockstep.agent.v1.ProbeClockResponse;
import lockstep.common.WallClock;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UdpClockProbeTest {

  @Test
  void anAgentThatOffersAClockPortIsProbedOverUdpWithFourTimestampsInOrder(@TempDir Path base)
      throws Exception {
    try (InProcessCluster<AgentServer> cluster =
            InProcessCluster.of(AgentMembers.withClockProbes()).under(base).start();
        GrpcAgent agent = new GrpcAgent("127.0.0.1:7070", cluster.member(0).channel())) {
      assertThat(agent.probesClockOverUdp()).isFalse();
      assertThat(agent.describe().getClockProbePort()).isPositive();
      assertThat(agent.probesClockOverUdp()).isTrue();
      ClockSample s = agent.probeClock();
      // one host, one clock: sent <= arrived <= answered <= received
      assertThat(s.sentUnixNanos()).isLessThanOrEqualTo(s.agentReceiveUnixNanos());
      assertThat(s.agentReceiveUnixNanos()).isLessThanOrEqualTo(s.agentSendUnixNanos());
      assertThat(s.agentSendUnixNanos()).isLessThanOrEqualTo(s.receivedUnixNanos());
      ClockOffset o = ClockOffset.measure(agent, 2, 8);
      assertThat(Math.abs(o.offsetNanos())).isLessThanOrEqualTo(o.uncertaintyNanos() + 1);
    }
  }

  @Test
  void unansweredUdpProbesFallBackToTheRpcForGood() throws Exception {
    // an agent whose UDP port is bound but never answers, as behind a UDP filter
    try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      try (FakeAgent fake =
              new FakeAgent(
                  DescribeResponse.newBuilder().setClockProbePort(silent.getLocalPort()).build(),
                  true);
          GrpcAgent agent = new GrpcAgent("127.0.0.1:7070", fake.channel)) {
        agent.describe();
        for (int i = 0; i < GrpcAgent.UDP_LOST_IN_A_ROW; i++) {
          assertThat(agent.probesClockOverUdp()).isTrue();
          assertThat(agent.probeClock().agentReceiveUnixNanos())
              .isPositive(); // answered over gRPC meanwhile
        }
        assertThat(agent.probesClockOverUdp()).isFalse();
        assertThat(agent.probeClock().agentSendUnixNanos()).isPositive();
      }
    }
  }

  @Test
  void anAddressWithoutAHostHasNoUdpProbe() throws Exception {
    assertThat(UdpClockProbe.open("in-process", 4000)).isEmpty();
    assertThat(UdpClockProbe.open("127.0.0.1:7070", 0)).isEmpty();
    try (UdpClockProbe v6 = UdpClockProbe.open("[::1]:7070", 4000).orElseThrow();
        UdpClockProbe dns = UdpClockProbe.open("dns:///127.0.0.1:7070", 4000).orElseThrow()) {
      assertThat(v6).isNotNull();
      assertThat(dns).isNotNull();
    }
  }

  @Test
  void anAgentBehindAPortForwardIsProbedOnTheDialledNumber() throws Exception {
    // The agent sees itself on 7070 (gRPC and UDP responder alike); the coordinator dials another
    // number, which the forward maps to it: here a real responder on that dialled number.
    try (ClockProbeResponder forwarded = ClockProbeResponder.start("127.0.0.1", 0)) {
      try (FakeAgent fake =
              new FakeAgent(
                  DescribeResponse.newBuilder().setClockProbePort(7070).setListenPort(7070).build(),
                  false);
          GrpcAgent agent = new GrpcAgent("127.0.0.1:" + forwarded.port(), fake.channel)) {
        agent.describe();
        assertThat(agent.clockProbeUdpPort()).isEqualTo(forwarded.port());
        ClockSample s = agent.probeClock();
        assertThat(s.agentReceiveUnixNanos()).isPositive();
        assertThat(agent.clockProbeUdpPort()).as("still over UDP").isEqualTo(forwarded.port());
      }
    }
  }

  @Test
  void theDialledNumberIsTriedFirstOnlyWhenTheResponderSharesTheGrpcPortsNumber() {
    assertThat(UdpClockProbe.portsToTry("127.0.0.1:7071", 7070, 7070)).containsExactly(7071, 7070);
    // the agent's gRPC port was taken by its responder's choice: its own number first
    assertThat(UdpClockProbe.portsToTry("127.0.0.1:7070", 40001, 7070))
        .containsExactly(40001, 7070);
    assertThat(UdpClockProbe.portsToTry("127.0.0.1:7070", 7070, 7070)).containsExactly(7070);
    // an agent of an older version tells no listen port: its advertised number, as before
    assertThat(UdpClockProbe.portsToTry("[::1]:7071", 7070, 0)).containsExactly(7070);
    assertThat(UdpClockProbe.portsToTry("in-process", 7070, 7070)).containsExactly(7070);
    assertThat(UdpClockProbe.portsToTry("127.0.0.1:7071", 0, 7070)).isEmpty();
  }

  /**
   * An in-process agent that answers describe with {@code description}, and clock probes over gRPC
   * when {@code grpcClockProbes} (else they are unimplemented, as the UDP probe must be the one).
   */
  private static final class FakeAgent implements AutoCloseable {
    private final Server server;
    final ManagedChannel channel;

    FakeAgent(DescribeResponse description, boolean grpcClockProbes) throws Exception {
      String name = InProcessServerBuilder.generateName();
      server =
          InProcessServerBuilder.forName(name)
              .addService(
                  new AgentServiceGrpc.AgentServiceImplBase() {
                    @Override
                    public void describe(
                        DescribeRequest request, StreamObserver<DescribeResponse> response) {
                      response.onNext(description);
                      response.onCompleted();
                    }

                    @Override
                    public void probeClock(
                        ProbeClockRequest request, StreamObserver<ProbeClockResponse> response) {
                      if (!grpcClockProbes) {
                        super.probeClock(request, response);
                        return;
                      }
                      long now = WallClock.nowNanos();
                      response.onNext(
                          ProbeClockResponse.newBuilder()
                              .setReceiveUnixNanos(now)
                              .setSendUnixNanos(now)
                              .build());
                      response.onCompleted();
                    }
                  })
              .build()
              .start();
      channel = InProcessChannelBuilder.forName(name).build();
    }

    @Override
    public void close() throws InterruptedException {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}

package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.DescribeRequest;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.KeepAliveRequest;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.testsupport.InProcessCluster;
import lockstep.testsupport.InProcessCluster.Started;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Describe waits for an agent as long as its heartbeats say it is alive, and gives up on it as soon
 * as they stop.
 */
class DescribeTest {
  @TempDir Path base;

  /** Heartbeat every 1 s, each within 2 s. */
  private static final FaultBounds BOUNDS = FaultBounds.forLease(Duration.ofSeconds(3));

  /** Answers Describe only once {@code beatsFirst} KeepAlives came in (0: never). */
  private static final class SlowAgent extends AgentServiceGrpc.AgentServiceImplBase {
    final boolean answersBeats;
    final int beatsFirst;
    final AtomicInteger beats = new AtomicInteger();
    final CountDownLatch describeCancelled = new CountDownLatch(1);
    private StreamObserver<DescribeResponse> pending;

    SlowAgent(boolean answersBeats, int beatsFirst) {
      this.answersBeats = answersBeats;
      this.beatsFirst = beatsFirst;
    }

    @Override
    public synchronized void describe(
        DescribeRequest request, StreamObserver<DescribeResponse> response) {
      ((ServerCallStreamObserver<DescribeResponse>) response)
          .setOnCancelHandler(describeCancelled::countDown);
      pending = response;
      if (beatsFirst > 0 && beats.get() >= beatsFirst) {
        answer();
      }
    }

    private void answer() {
      pending.onNext(DescribeResponse.newBuilder().setNodeName("slow").build());
      pending.onCompleted();
    }

    @Override
    public synchronized void keepAlive(
        KeepAliveRequest request, StreamObserver<KeepAliveResponse> response) {
      if (!answersBeats) {
        return;
      }
      response.onNext(KeepAliveResponse.getDefaultInstance());
      response.onCompleted();
      if (beats.incrementAndGet() == beatsFirst && pending != null) {
        answer();
      }
    }
  }

  private static InProcessCluster<Server> serving(SlowAgent agent, Path base) throws Exception {
    return InProcessCluster.<Server>of(
            (builder, name, root, host) -> {
              Server s = builder.addService(agent).build().start();
              return new Started<>(s, s::getPort, s::shutdownNow);
            })
        .under(base)
        .start();
  }

  @Test
  void aSlowAgentThatAnswersItsHeartbeatsIsWaitedFor() throws Exception {
    SlowAgent slow = new SlowAgent(true, 3);
    try (InProcessCluster<Server> cluster = serving(slow, base)) {
      List<Agent> agents = List.of(new GrpcAgent("slow:1", cluster.member(0).channel()));
      try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
        FanOut<DescribeResponse> d = ExperimentRunner.describe(ensemble, agents, BOUNDS);

        assertThat(d.errorMessages()).isEmpty();
        assertThat(d.values().get(agents.get(0)).getNodeName()).isEqualTo("slow");
        assertThat(slow.beats.get()).isGreaterThanOrEqualTo(3);
      }
    }
  }

  @Test
  void anAgentWhoseHeartbeatsStopIsGivenUpOnAndItsDescribeCancelled() throws Exception {
    SlowAgent dead = new SlowAgent(false, 0);
    try (InProcessCluster<Server> cluster = serving(dead, base)) {
      List<Agent> agents = List.of(new GrpcAgent("dead:1", cluster.member(0).channel()));
      try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
        long began = System.nanoTime();
        FanOut<DescribeResponse> d = ExperimentRunner.describe(ensemble, agents, BOUNDS);
        long took = System.nanoTime() - began;

        assertThat(d.errorMessages())
            .singleElement()
            .asString()
            .startsWith("agent dead:1: describe: agent lost: no heartbeat: no answer within");
        // lost within a heartbeat and a lease (with room for a busy machine), not at the
        // phase's ceiling of minutes
        assertThat(took).isLessThan(TimeUnit.SECONDS.toNanos(15));
        assertThat(took).isLessThan(Phase.DESCRIBE.budget().toNanos() / 10);
        assertThat(dead.describeCancelled.await(5, TimeUnit.SECONDS))
            .as("the Describe is cancelled on the agent")
            .isTrue();
      }
    }
  }
}

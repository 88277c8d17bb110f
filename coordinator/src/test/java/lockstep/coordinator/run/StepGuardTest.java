package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.KeepAliveRequest;
import lockstep.agent.v1.KeepAliveResponse;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.testsupport.InProcessCluster;
import lockstep.testsupport.InProcessCluster.Started;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heartbeat's view of an agent: lost when its beat fails, not when the step closes it. */
class StepGuardTest {
  @TempDir Path base;

  /** An agent whose KeepAlive never answers: the heartbeat's call blocks until it is stopped. */
  private static final class SilentKeepAlive extends AgentServiceGrpc.AgentServiceImplBase {
    final CountDownLatch called = new CountDownLatch(1);

    @Override
    public void keepAlive(KeepAliveRequest request, StreamObserver<KeepAliveResponse> response) {
      called.countDown();
    }
  }

  private static InProcessCluster.MemberFactory<Server> serving(BindableService service) {
    return (builder, name, root, host) -> {
      Server s = builder.addService(service).build().start();
      return new Started<>(s, s::getPort, s::shutdownNow);
    };
  }

  @Test
  void aBeatInFlightWhenTheStepClosesIsNotALostAgent() throws Exception {
    SilentKeepAlive service = new SilentKeepAlive();
    List<String> lostReasons = new CopyOnWriteArrayList<>();
    try (InProcessCluster<Server> cluster =
            InProcessCluster.of(serving(service)).under(base).start();
        GrpcAgent agent = new GrpcAgent("in-process", cluster.member(0).channel())) {
      StepGuard guard =
          new StepGuard(
              "r.all", List.of(agent), FaultBounds.defaults(), (a, why) -> lostReasons.add(why));
      assertThat(service.called.await(10, TimeUnit.SECONDS)).as("a beat in flight").isTrue();
      // the step ends with the beat still waiting for its answer: closing interrupts it
      guard.close();
      assertThat(guard.lost()).isEmpty();
      assertThat(lostReasons).isEmpty();
    }
  }

  @Test
  void aBeatThatFailsWhileTheStepRunsLosesTheAgent() throws Exception {
    List<String> lostReasons = new CopyOnWriteArrayList<>();
    // a member that is gone before the first beat (UNIMPLEMENTED would be an older agent)
    try (InProcessCluster<Server> cluster =
        InProcessCluster.of(serving(new AgentServiceGrpc.AgentServiceImplBase() {}))
            .under(base)
            .start()) {
      var channel = cluster.member(0).channel();
      try (GrpcAgent agent = new GrpcAgent("in-process", channel)) {
        cluster.member(0).server().shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        StepGuard guard =
            new StepGuard(
                "r.all",
                List.of(agent),
                FaultBounds.forLease(Duration.ofSeconds(3)),
                (a, why) -> lostReasons.add(why));
        await().atMost(Duration.ofSeconds(10)).until(() -> !lostReasons.isEmpty());
        guard.close();
        assertThat(lostReasons).singleElement().asString().startsWith("no heartbeat: ");
        assertThat(guard.lost()).containsKey(agent);
      }
    }
  }
}

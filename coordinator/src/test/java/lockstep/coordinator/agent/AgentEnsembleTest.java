package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Server;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.PrepareResponse;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.testsupport.InProcessCluster;
import lockstep.testsupport.InProcessCluster.Started;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fan-out keeps each agent's outcome, and a phase that gives up leaves no call running: with a
 * thread per call ({@link AgentEnsemble#call}) and asynchronously ({@link AgentEnsemble#callAsync})
 * alike.
 */
class AgentEnsembleTest {
  @TempDir Path base;

  private InProcessCluster<Server> cluster;

  /**
   * Prepare on "n1" answers; on any other member it never does, and notes when the caller cancels.
   */
  private static final class Agents extends AgentServiceGrpc.AgentServiceImplBase {
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch cancelled = new CountDownLatch(1);
    final AtomicLong cancelledAtNanos = new AtomicLong();
    private final String name;

    Agents(String name) {
      this.name = name;
    }

    @Override
    public void prepare(PrepareRequest request, StreamObserver<PrepareResponse> response) {
      if (name.equals("n1")) {
        response.onNext(PrepareResponse.newBuilder().addPaths("w." + name).build());
        response.onCompleted();
        return;
      }
      ((ServerCallStreamObserver<PrepareResponse>) response)
          .setOnCancelHandler(
              () -> {
                cancelledAtNanos.set(System.nanoTime());
                cancelled.countDown();
              });
      held.countDown(); // and never answers
    }
  }

  private final List<Agents> services = new java.util.ArrayList<>();

  private List<Agent> agents(int n) throws Exception {
    cluster =
        InProcessCluster.<Server>of(
                (builder, name, root, host) -> {
                  Agents service = new Agents(name);
                  services.add(service);
                  Server s = builder.addService(service).build().start();
                  return new Started<>(s, s::getPort, s::shutdownNow);
                })
            .members(n)
            .under(base)
            .start();
    return cluster.members().stream()
        .<Agent>map(m -> new GrpcAgent(m.name(), m.channel()))
        .toList();
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static final PrepareRequest PREPARE = PrepareRequest.newBuilder().setRunId("r").build();

  /** Prepare on {@code targets} within {@code budget}, blocking on threads or asynchronously. */
  private static FanOut<PrepareResponse> prepare(
      AgentEnsemble ensemble, boolean async, Duration budget, List<Agent> targets) {
    CallScope root = CallScope.open();
    return async
        ? ensemble.callAsync("prepare", budget, targets, a -> root, a -> a.prepareAsync(PREPARE))
        : ensemble.call("prepare", budget, targets, a -> root, a -> a.prepare(PREPARE));
  }

  @ParameterizedTest(name = "async {0}")
  @ValueSource(booleans = {false, true})
  void eachAgentKeepsItsOwnValueOrError(boolean async) throws Exception {
    List<Agent> agents = agents(2);
    try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
      FanOut<PrepareResponse> out = prepare(ensemble, async, Duration.ofMillis(300), agents);

      assertThat(out.ok()).isFalse();
      assertThat(out.values()).containsOnlyKeys(agents.get(0));
      assertThat(out.values().get(agents.get(0)).getPathsList()).containsExactly("w.n1");
      assertThat(out.errors()).containsOnlyKeys(agents.get(1));
      assertThat(out.errorMessages())
          .singleElement()
          .asString()
          .startsWith("agent n2: prepare: no answer within the deadline");
    }
  }

  @ParameterizedTest(name = "async {0}")
  @ValueSource(booleans = {false, true})
  void aPhaseThatRunsOutOfTimeCancelsTheCallOnTheAgent(boolean async) throws Exception {
    List<Agent> agents = agents(2);
    Agents silent = services.get(1);
    try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
      long began = System.nanoTime();
      FanOut<PrepareResponse> out = prepare(ensemble, async, Duration.ofMillis(500), agents);
      long returned = System.nanoTime();

      assertThat(out.errors().get(agents.get(1)))
          .isInstanceOfSatisfying(AgentCallException.class, e -> assertThat(e.timedOut()).isTrue());
      // the agent's handler sees its call end with the phase, not when some longer deadline of
      // the call's own would have passed
      assertThat(silent.cancelled.await(5, TimeUnit.SECONDS)).as("cancelled on the agent").isTrue();
      assertThat(silent.cancelledAtNanos.get() - began)
          .isLessThan(TimeUnit.MILLISECONDS.toNanos(500 + 1_000));
      assertThat(returned - began).isLessThan(TimeUnit.MILLISECONDS.toNanos(500 + 1_000));
    }
  }

  @ParameterizedTest(name = "async {0}")
  @ValueSource(booleans = {false, true})
  void aPhaseThatGivesUpBeforeItsDeadlineCancelsTheCallOnTheAgent(boolean async) throws Exception {
    List<Agent> agents = agents(2);
    Agents silent = services.get(1);
    try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
      Thread caller = Thread.currentThread();
      // the waiting thread is interrupted (Ctrl-C) once the call is held on the agent
      CompletableFuture<Void> interrupter =
          CompletableFuture.runAsync(
              () -> {
                try {
                  silent.held.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                caller.interrupt();
              });
      long began = System.nanoTime();
      FanOut<PrepareResponse> out =
          prepare(ensemble, async, Duration.ofMinutes(3), List.of(agents.get(1)));
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
      interrupter.join();

      assertThat(out.errorMessages())
          .singleElement()
          .asString()
          .isEqualTo("agent n2: prepare: cancelled: prepare was interrupted");
      assertThat(silent.cancelled.await(5, TimeUnit.SECONDS)).as("cancelled on the agent").isTrue();
      assertThat(silent.cancelledAtNanos.get() - began).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }
  }

  @Test
  void atMostAtOnceCallsAreInFlightAndTheOthersWaitTheirTurnWithoutAThread() throws Exception {
    agents(1);
    List<Agent> twelve = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      twelve.add(new GrpcAgent("a" + i, cluster.member(0).channel()));
    }
    AtomicInteger started = new AtomicInteger();
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    CountDownLatch release = new CountDownLatch(1);
    try (AgentEnsemble ensemble = new AgentEnsemble(twelve)) {
      CallScope root = CallScope.open();
      CompletableFuture<FanOut<Integer>> out =
          CompletableFuture.supplyAsync(
              () ->
                  ensemble.call(
                      "count",
                      Duration.ofSeconds(30),
                      twelve,
                      a -> root,
                      3,
                      a -> {
                        started.incrementAndGet();
                        threads.add(Thread.currentThread());
                        try {
                          release.await(30, TimeUnit.SECONDS); // held until three are in flight
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                        }
                        return 1;
                      }));
      await().atMost(Duration.ofSeconds(10)).until(() -> started.get() >= 3);
      assertThat(started.get()).as("no fourth call before one of the three ends").isEqualTo(3);
      release.countDown();
      assertThat(out.get(30, TimeUnit.SECONDS).values()).hasSize(12);
      assertThat(threads).hasSizeLessThanOrEqualTo(3);
    }
  }
}

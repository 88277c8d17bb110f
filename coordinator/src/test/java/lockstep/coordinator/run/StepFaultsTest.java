package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import lockstep.common.WallClock;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;
import org.junit.jupiter.api.Test;

/** Which victims a step's faults leave for the injector to bring back. */
class StepFaultsTest {
  /** Records what it is asked to do; every fault takes effect at once. */
  private static final class Recording implements FaultInjector {
    final List<String> done = new CopyOnWriteArrayList<>();
    final CountDownLatch allDone;

    Recording(List<Fault> faults) {
      allDone =
          new CountDownLatch(
              faults.size() + (int) faults.stream().filter(f -> f.action().lasts()).count());
    }

    @Override
    public String refuses(String node) {
      return null;
    }

    @Override
    public void begin(Fault f) {
      done.add("begin " + f.describe());
      allDone.countDown();
    }

    @Override
    public String end(Fault f) {
      done.add("end " + f.describe());
      allDone.countDown();
      return "continued";
    }

    @Override
    public String recover(String node) {
      done.add("recover " + node);
      return "recovered";
    }
  }

  /**
   * The injector's recoveries after a step with these faults, all due at its instant; {@code
   * lostNode}'s agent lost during the step (null: none).
   */
  private static List<String> recoveredBy(List<Fault> faults, String lostNode, Recording injector)
      throws InterruptedException {
    StepFaults step = StepFaults.of(faults, List.of("node1", "node2", "node3"), injector);
    step.schedule(WallClock.nowNanos());
    assertThat(injector.allDone.await(10, TimeUnit.SECONDS)).as("faults begun and ended").isTrue();
    if (lostNode != null) {
      step.victimLost(lostNode);
    }
    step.close();
    step.recover();
    return injector.done.stream().filter(d -> d.startsWith("recover")).toList();
  }

  @Test
  void aKilledNodeIsRecoveredAndAContinuedFreezeIsNot() throws Exception {
    List<Fault> faults =
        List.of(
            new Fault(0, "node2", FaultAction.FREEZE, 100),
            new Fault(0, "node3", FaultAction.KILL, 0));
    assertThat(recoveredBy(faults, "node3", new Recording(faults)))
        .containsExactly("recover node3");
  }

  @Test
  void aFrozenNodeWhoseAgentWasLostIsRecovered() throws Exception {
    // fenced at the end of its freeze: the step lost its agent
    List<Fault> faults = List.of(new Fault(0, "node2", FaultAction.FREEZE, 100));
    assertThat(recoveredBy(faults, "node2", new Recording(faults)))
        .containsExactly("recover node2");
  }

  @Test
  void aCutThatWasReconnectedLeavesNothingToRecover() throws Exception {
    List<Fault> faults = List.of(new Fault(0, "node2", FaultAction.PARTITION, 100));
    assertThat(recoveredBy(faults, null, new Recording(faults))).isEmpty();
  }
}

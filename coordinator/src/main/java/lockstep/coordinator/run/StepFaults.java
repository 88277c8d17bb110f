package lockstep.coordinator.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.agent.v1.ProgressSample;
import lockstep.common.DaemonThreads;
import lockstep.common.WallClock;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.fault.FaultException;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.results.NodeResults;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scenario's faults in one step: those whose victim takes part together with at least one other
 * node that runs the workload (a survivor to measure); the victim may be a watch-only node. Each is
 * carried out at its time after the step's instant, on a thread of its own, and a freeze or
 * partition ended after its duration or when the step ends, whichever is first, so that no victim
 * stays paused or cut off past its step. A victim lost after its fault began is expected, not a
 * failure of the step.
 */
final class StepFaults implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(StepFaults.class);

  private final FaultInjector injector;
  private final Map<Fault, Happened> faults = new LinkedHashMap<>();
  private final Map<String, List<ProgressSample>> victimProgress = new ConcurrentHashMap<>();
  private ScheduledExecutorService timer;

  private static final class Happened {
    volatile long begun;
    volatile long ended;
    volatile boolean victimLost;
    volatile long lostAt;
    volatile String error;
    volatile String ending;
    volatile String recovery;
  }

  private StepFaults(List<Fault> faults, FaultInjector injector) {
    this.injector = injector;
    faults.forEach(f -> this.faults.put(f, new Happened()));
    faults.forEach(f -> victimProgress.put(f.node(), new CopyOnWriteArrayList<>()));
  }

  /**
   * The faults of {@code all} on a node of the step ({@code workers}, or {@code watchers}: a server
   * that runs no workload) that leave at least one node of the workload to measure.
   */
  static StepFaults of(
      List<Fault> all, List<String> workers, List<String> watchers, FaultInjector injector) {
    List<Fault> here =
        all.stream()
            .filter(f -> workers.contains(f.node()) || watchers.contains(f.node()))
            .filter(f -> workers.stream().anyMatch(w -> !w.equals(f.node())))
            .toList();
    return new StepFaults(here, injector);
  }

  static StepFaults of(List<Fault> all, List<String> stepNodes, FaultInjector injector) {
    return of(all, stepNodes, List.of(), injector);
  }

  boolean isEmpty() {
    return faults.isEmpty();
  }

  /** Schedules every fault relative to the step's instant (coordinator clock). */
  synchronized void schedule(long instantUnixNanos) {
    if (faults.isEmpty()) {
      return;
    }
    timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("faults"));
    faults.forEach(
        (f, h) -> {
          long at = instantUnixNanos + f.atMillis() * 1_000_000L;
          timer.schedule(() -> begin(f, h), at - WallClock.nowNanos(), TimeUnit.NANOSECONDS);
          if (f.action().lasts()) {
            timer.schedule(
                () -> end(f, h),
                at + f.forMillis() * 1_000_000L - WallClock.nowNanos(),
                TimeUnit.NANOSECONDS);
          }
        });
  }

  private void begin(Fault f, Happened h) {
    // set first: the victim's agent may be lost before the injector returns (its stream breaks
    // as its QEMU dies), and that loss is the fault's
    h.begun = WallClock.nowNanos();
    try {
      LOG.info("fault: {}", f.describe());
      injector.begin(f);
    } catch (FaultException | IllegalStateException e) {
      h.begun = 0;
      h.error = "could not " + f.action() + " " + f.node() + ": " + e.getMessage();
      LOG.warn("fault {}: {}", f.describe(), h.error);
    }
  }

  private void end(Fault f, Happened h) {
    if (h.begun == 0 || h.ended != 0) {
      return;
    }
    try {
      h.ending = injector.end(f);
      h.ended = WallClock.nowNanos();
      LOG.info("fault {} ended: {}", f.describe(), h.ending);
    } catch (FaultException | IllegalStateException e) {
      h.error = "could not end the " + f.action() + " of " + f.node() + ": " + e.getMessage();
      LOG.warn("fault {}: {}", f.describe(), h.error);
    }
  }

  /** Whether {@code node}'s loss now is its fault's doing: a fault on it has begun. */
  boolean expectsLoss(String node) {
    return faults.entrySet().stream()
        .anyMatch(e -> e.getKey().node().equals(node) && e.getValue().begun != 0);
  }

  void victimLost(String node) {
    long now = WallClock.nowNanos();
    faults.forEach(
        (f, h) -> {
          if (f.node().equals(node) && h.begun != 0) {
            h.victimLost = true;
            h.lostAt = now;
          }
        });
  }

  /**
   * A progress sample of a step's node, as its agent streamed it: kept for a fault's victim, whose
   * result the step may never get (a killed or fenced node's agent is lost).
   */
  void progress(String node, ProgressSample sample) {
    List<ProgressSample> mine = victimProgress.get(node);
    if (mine != null) {
      mine.add(sample);
    }
  }

  /** Nodes lost to a fault, which the step need not hear from. */
  Set<String> lostVictims() {
    Set<String> out = new LinkedHashSet<>();
    faults.forEach(
        (f, h) -> {
          if (h.victimLost) {
            out.add(f.node());
          }
        });
    return out;
  }

  /**
   * The step's run is over: faults not yet due are dropped, and a freeze or partition still in
   * effect is ended now (before cleanup, so the victim can take part in it).
   */
  @Override
  public synchronized void close() {
    if (timer == null) {
      return;
    }
    timer.shutdownNow();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    faults.forEach(
        (f, h) -> {
          if (f.action().lasts()) {
            end(f, h);
          }
        });
    timer = null;
  }

  /**
   * After cleanup: every victim a fault took down brought back by the injector (once per node): a
   * killed node, or one its agent was lost to (fenced at the end of a freeze or a cut). A freeze
   * that was continued or a cut that was reconnected with its agent still answering left a whole
   * member, with nothing to bring back. A recovery that fails is the step's error.
   */
  List<String> recover() {
    List<String> errors = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    faults.forEach(
        (f, h) -> {
          boolean down = f.action() == FaultAction.KILL || h.victimLost;
          if (h.begun == 0 || !down || !done.add(f.node())) {
            return;
          }
          try {
            h.recovery = injector.recover(f.node());
            LOG.info("fault victim {} recovered: {}", f.node(), h.recovery);
          } catch (FaultException | IllegalStateException e) {
            h.recovery = "not recovered: " + e.getMessage();
            errors.add(
                "node "
                    + f.node()
                    + ": after its fault the lab could not recover it: "
                    + e.getMessage());
          }
        });
    return errors;
  }

  /**
   * What happened, with each victim's progress on the coordinator's clock ({@code clocks} by node;
   * seconds since {@code origin}, the step's intended start).
   */
  List<FaultRecord> records(Map<String, ClockOffset> clocks, long origin, boolean bytesUnit) {
    List<FaultRecord> out = new ArrayList<>();
    faults.forEach(
        (f, h) -> {
          ClockOffset clock = clocks.get(f.node());
          List<Sample> series =
              clock == null || origin == 0
                  ? List.of()
                  : NodeResults.series(victimProgress.get(f.node()), clock, origin, bytesUnit);
          out.add(
              new FaultRecord(
                  f,
                  h.begun,
                  h.ended,
                  h.victimLost,
                  h.begun == 0 && h.error == null ? "the step ended before it was due" : h.error,
                  h.ending,
                  h.recovery,
                  series,
                  h.lostAt == 0 || origin == 0 ? null : (h.lostAt - origin) / 1e9));
        });
    return out;
  }
}

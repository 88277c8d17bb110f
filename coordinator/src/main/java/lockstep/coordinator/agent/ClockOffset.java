package lockstep.coordinator.agent;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Deadline;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An agent's clock offset (agent minus coordinator, ns) from the probe with the lowest delay (NTP's
 * clock filter); the true offset lies within +-delay/2 of it ({@link #uncertaintyNanos}). {@code
 * roundTripNanos} is that probe's delay: its round trip less the agent's holding time.
 */
public record ClockOffset(long offsetNanos, long roundTripNanos, int probes) {
  /** Probes sent first and not counted: they pay for connection, class loading and cold code. */
  public static final int WARM_UP_PROBES = 4;

  /** Probes counted at most. */
  public static final int PROBES = 16;

  /** Probes counted at least, before a run of probes that found no lower delay ends the probing. */
  static final int MIN_PROBES = 8;

  /** Probes in a row without a lower delay that end the probing (after {@link #MIN_PROBES}). */
  static final int NO_BETTER_IN_A_ROW = 5;

  /**
   * Agents probed at once in this JVM, at most: one per core of the coordinator, up to 8 ({@code
   * -Dlockstep.clock.agentsAtOnce=K} to change it). Each agent's probes stay one after another on
   * one thread, and its offset comes from its own lowest-delay probe, as before; probing one agent
   * at a time took 1.1 s for 1,024 agents on a loaded 2-core machine, two at a time 0.56 s with the
   * same uncertainty (median 11 us, at most 37 us). More probing threads than cores queue behind
   * each other and every queueing is delay: four at a time on 2 cores doubled the median
   * uncertainty, eight quadrupled it (docs/performance.md, ClockSyncBench).
   */
  public static final int AGENTS_AT_ONCE =
      Integer.getInteger(
          "lockstep.clock.agentsAtOnce", Math.min(8, Runtime.getRuntime().availableProcessors()));

  private static final Semaphore TURNS = new Semaphore(AGENTS_AT_ONCE, true);

  public static ClockOffset fromBestOf(Collection<ClockSample> samples) {
    ClockSample best =
        samples.stream()
            .min(Comparator.comparingLong(ClockSample::delayNanos))
            .orElseThrow(() -> new IllegalArgumentException("no clock samples"));
    return new ClockOffset(best.offsetNanos(), best.delayNanos(), samples.size());
  }

  /**
   * {@link #WARM_UP_PROBES} discarded probes, then up to {@link #PROBES} counted ones, one after
   * another, stopping early once {@link #MIN_PROBES} are counted and the last {@link
   * #NO_BETTER_IN_A_ROW} found no lower delay; callers on several threads take their turns ({@link
   * #AGENTS_AT_ONCE} agents probed at a time). A caller whose {@link CallScope} ends while it waits
   * for its turn, or between two probes, stops there with an {@link AgentCallException}.
   */
  public static ClockOffset measure(Agent agent) {
    return measure(agent, WARM_UP_PROBES, PROBES);
  }

  public static ClockOffset measure(Agent agent, int warmUp, int probes) {
    if (probes < 1) {
      throw new IllegalArgumentException("probes must be at least 1, got " + probes);
    }
    List<ClockSample> samples = new ArrayList<>(probes);
    Context scope = Context.current();
    takeTurn(agent, scope);
    try {
      for (int i = 0; i < warmUp; i++) {
        stillWanted(agent, scope);
        agent.probeClock();
      }
      long best = Long.MAX_VALUE;
      int noBetter = 0;
      for (int i = 0; i < probes; i++) {
        stillWanted(agent, scope);
        ClockSample sample = agent.probeClock();
        samples.add(sample);
        if (sample.delayNanos() < best) {
          best = sample.delayNanos();
          noBetter = 0;
        } else if (++noBetter >= NO_BETTER_IN_A_ROW && samples.size() >= MIN_PROBES) {
          break;
        }
      }
    } finally {
      TURNS.release();
    }
    return fromBestOf(samples);
  }

  /**
   * Waits for this agent's turn, until the scope's deadline; the scope's cancellation interrupts
   * the wait (a parked waiter costs nothing while others probe).
   */
  private static void takeTurn(Agent agent, Context scope) {
    Thread waiter = Thread.currentThread();
    Context.CancellationListener wake = c -> waiter.interrupt();
    scope.addListener(wake, Runnable::run);
    try {
      Deadline d = scope.getDeadline();
      boolean mine =
          d == null
              ? acquireInterruptibly()
              : TURNS.tryAcquire(d.timeRemaining(TimeUnit.NANOSECONDS), NANOSECONDS);
      if (!mine) {
        throw AgentCallException.timedOut(
            agent.address(), "clock probe", "its turn among the agents did not come in time");
      }
    } catch (InterruptedException e) {
      if (!scope.isCancelled()) {
        Thread.currentThread().interrupt();
      }
      stillWanted(agent, scope);
      throw new AgentCallException(
          agent.address(), "clock probe", Status.CANCELLED.withDescription("interrupted"));
    } finally {
      scope.removeListener(wake);
    }
  }

  private static boolean acquireInterruptibly() throws InterruptedException {
    TURNS.acquire();
    return true;
  }

  /** Fails with the scope's own reason once it has ended. */
  private static void stillWanted(Agent agent, Context scope) {
    if (scope.isCancelled()) {
      throw new AgentCallException(
          agent.address(), "clock probe", Contexts.statusFromCancelled(scope));
    }
  }

  public long toAgentClock(long coordinatorUnixNanos) {
    return coordinatorUnixNanos + offsetNanos;
  }

  public long toCoordinatorClock(long agentUnixNanos) {
    return agentUnixNanos - offsetNanos;
  }

  public long uncertaintyNanos() {
    return roundTripNanos / 2;
  }
}

package lockstep.agent.run;

import static lockstep.agent.v1.RunState.RUN_STATE_ABORTED;
import static lockstep.agent.v1.RunState.RUN_STATE_ARMED;
import static lockstep.agent.v1.RunState.RUN_STATE_FAILED;
import static lockstep.agent.v1.RunState.RUN_STATE_PREPARED;
import static lockstep.agent.v1.RunState.RUN_STATE_RUNNING;
import static lockstep.agent.v1.RunState.RUN_STATE_SUCCEEDED;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import lockstep.agent.v1.RunState;

/**
 * Which state of a {@link Run} may follow which: the one table of a run's life.
 *
 * <pre>
 * PREPARED -> ARMED (Start) | ABORTED (Abort, lease)
 * ARMED    -> RUNNING (the instant) | FAILED (before it) | ABORTED
 * RUNNING  -> SUCCEEDED | FAILED | ABORTED (the workload's result)
 * SUCCEEDED, FAILED, ABORTED: final
 * </pre>
 */
public final class RunStates {
  private static final Map<RunState, Set<RunState>> NEXT =
      Map.of(
          RUN_STATE_PREPARED, EnumSet.of(RUN_STATE_ARMED, RUN_STATE_ABORTED),
          RUN_STATE_ARMED, EnumSet.of(RUN_STATE_RUNNING, RUN_STATE_FAILED, RUN_STATE_ABORTED),
          RUN_STATE_RUNNING, EnumSet.of(RUN_STATE_SUCCEEDED, RUN_STATE_FAILED, RUN_STATE_ABORTED),
          RUN_STATE_SUCCEEDED, EnumSet.noneOf(RunState.class),
          RUN_STATE_FAILED, EnumSet.noneOf(RunState.class),
          RUN_STATE_ABORTED, EnumSet.noneOf(RunState.class));

  private RunStates() {}

  /** Whether a run in state {@code from} may go to {@code to}. */
  public static boolean allows(RunState from, RunState to) {
    return NEXT.getOrDefault(from, Set.of()).contains(to);
  }

  /** A state no other follows: the run has its result. */
  public static boolean isFinal(RunState s) {
    return NEXT.containsKey(s) && NEXT.get(s).isEmpty();
  }
}

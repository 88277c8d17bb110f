package lockstep.coordinator.run;

import java.time.Duration;

/**
 * The phases of a run, in order, each a barrier over every node of the step (Hazelcast Simulator's
 * test phases): no phase begins on any node before the one before it has ended on all.
 *
 * <p>Each phase has one budget, here and nowhere else: the fan-out waits that long, every call of
 * the phase carries it as its deadline (the agent sees it too: Prepare sizes its worker start by
 * what is left of it), and when the phase gives up its calls still in flight are cancelled. A lost
 * agent (its heartbeats fail: {@link FaultBounds}) has its calls cancelled sooner. {@link #RUN}'s
 * budget is the scenario's timeout plus the start lead plus {@link #RUN}'s own grace.
 */
public enum Phase {
  /**
   * Describe every agent before the first step (connecting, a TLS handshake and a cold agent
   * reading its environment included). A ceiling only: an agent is waited for as long as its
   * heartbeats say it is alive, and given up on as soon as they fail.
   */
  DESCRIBE("describe", Duration.ofMinutes(5)),
  /** Validate and set up the workload: files, buffers, worker processes started and ready. */
  PREPARE("prepare", Duration.ofMinutes(3)),
  /** Estimate each agent's clock offset, a few agents at a time (one per core). */
  CLOCK_SYNC("clock sync", Duration.ofSeconds(30)),
  /** Arm every agent for the start instant, each in its own clock. */
  START("start", Duration.ofSeconds(30)),
  /**
   * Watch progress until every node's run has ended: the scenario's timeout and lead, plus this.
   */
  RUN("run", Duration.ofSeconds(5)),
  /**
   * End the watch-only nodes' runs (they only sampled their resources), once the workload has ended
   * on every node of the step.
   */
  FINISH("finish", Duration.ofSeconds(30)),
  /** Fetch every node's result. */
  COLLECT("collect", Duration.ofSeconds(30)),
  /** Remove what the run created, on every node, always. */
  CLEANUP("cleanup", Duration.ofMinutes(2)),
  /** Only once every node has cleaned: the step's directory, which the nodes may share. */
  REMOVE_RUN_DIR("remove run directory", Duration.ofSeconds(30)),
  /** Not a phase of its own: stopping the others when one node fails or is lost. */
  ABORT("abort", Duration.ofSeconds(30));

  private final String label;
  private final Duration budget;

  Phase(String label, Duration budget) {
    this.label = label;
    this.budget = budget;
  }

  /** The phase as errors and logs name it ("node n1: prepare: ..."). */
  public String label() {
    return label;
  }

  /** How long the phase may take on all its nodes together; {@link #RUN}'s: {@link #runBudget}. */
  public Duration budget() {
    if (this == RUN) {
      throw new IllegalStateException("the run phase's budget is the scenario's: runBudget()");
    }
    return budget;
  }

  /**
   * {@link #RUN}'s budget: the scenario's timeout, the start lead and a grace for the last answer.
   */
  public static Duration runBudget(Duration scenarioTimeout, Duration startLead) {
    return scenarioTimeout.plus(startLead).plus(RUN.budget);
  }

  @Override
  public String toString() {
    return label;
  }
}

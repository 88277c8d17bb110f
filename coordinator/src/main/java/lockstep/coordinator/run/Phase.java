package lockstep.coordinator.run;

/**
 * The phases of one step, in order, each a barrier over every node of the step (Hazelcast
 * Simulator's test phases): no phase begins on any node before the one before it has ended on all.
 * Each wait is bounded; {@link #RUN}'s bound is the scenario's timeout plus the start lead.
 */
public enum Phase {
  /** Validate and set up the workload: files, buffers, worker processes started and ready. */
  PREPARE("prepare", 200_000),
  /** Estimate each agent's clock offset, one agent at a time. */
  CLOCK_SYNC("clock sync", 30_000),
  /** Arm every agent for the start instant, each in its own clock. */
  START("start", 30_000),
  /** Watch progress until every node's run has ended. */
  RUN("run", 0),
  /** Fetch every node's result. */
  COLLECT("collect", 30_000),
  /** Remove what the run created, on every node, always. */
  CLEANUP("cleanup", 320_000),
  /** Only once every node has cleaned: the step's directory, which the nodes may share. */
  REMOVE_RUN_DIR("remove run directory", 30_000),
  /** Not a phase of its own: stopping the others when one node fails or is lost. */
  ABORT("abort", 30_000);

  private final String label;
  private final long boundMillis;

  Phase(String label, long boundMillis) {
    this.label = label;
    this.boundMillis = boundMillis;
  }

  /** The phase as errors and logs name it ("node n1: prepare: ..."). */
  public String label() {
    return label;
  }

  /** How long the phase may take on all its nodes together (0 for {@link #RUN}: the scenario's). */
  public long boundMillis() {
    return boundMillis;
  }

  @Override
  public String toString() {
    return label;
  }
}

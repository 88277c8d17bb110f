package lockstep.coordinator.run;

import java.time.Duration;

/**
 * The phases of one step, in order, each a barrier over every node of the step (Hazelcast
 * Simulator's test phases): no phase begins on any node before the one before it has ended on all.
 * Each wait is bounded; {@link #RUN}'s bound is the scenario's timeout plus the start lead.
 */
public enum Phase {
  /** Validate and set up the workload: files, buffers, worker processes started and ready. */
  PREPARE("prepare", Duration.ofSeconds(200)),
  /** Estimate each agent's clock offset, one agent at a time. */
  CLOCK_SYNC("clock sync", Duration.ofSeconds(30)),
  /** Arm every agent for the start instant, each in its own clock. */
  START("start", Duration.ofSeconds(30)),
  /** Watch progress until every node's run has ended. */
  RUN("run", Duration.ZERO),
  /** Fetch every node's result. */
  COLLECT("collect", Duration.ofSeconds(30)),
  /** Remove what the run created, on every node, always. */
  CLEANUP("cleanup", Duration.ofSeconds(320)),
  /** Only once every node has cleaned: the step's directory, which the nodes may share. */
  REMOVE_RUN_DIR("remove run directory", Duration.ofSeconds(30)),
  /** Not a phase of its own: stopping the others when one node fails or is lost. */
  ABORT("abort", Duration.ofSeconds(30));

  private final String label;
  private final Duration bound;

  Phase(String label, Duration bound) {
    this.label = label;
    this.bound = bound;
  }

  /** The phase as errors and logs name it ("node n1: prepare: ..."). */
  public String label() {
    return label;
  }

  /** How long the phase may take on all its nodes together (0 for {@link #RUN}: the scenario's). */
  public long boundMillis() {
    return bound.toMillis();
  }

  @Override
  public String toString() {
    return label;
  }
}

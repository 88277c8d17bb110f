package lockstep.coordinator.model;

import static lockstep.coordinator.model.FindingKind.BOTTLENECK;
import static lockstep.coordinator.model.FindingKind.FAULTS;
import static lockstep.coordinator.model.FindingKind.SCALING;
import static lockstep.coordinator.model.FindingKind.SETUP;
import static lockstep.coordinator.model.FindingKind.TRUST;
import static lockstep.coordinator.model.FindingKind.VALIDITY;

/**
 * Every finding the verdict can state, once: its code as run.json writes it (the constant's name in
 * lower case, '-' for '_': {@code RATE_LIMIT} is {@code rate-limit}), what it is about ({@link
 * FindingKind}), and how it competes for a headline. A report leads with at most three findings: an
 * invalid run's reason, then of the faults, scaling and trust findings the one of its kind with the
 * lowest {@link #headlineRank}, and the bottleneck of the widest step (any rank-1 bottleneck before
 * "no single bottleneck"); a finding of rank 0 never leads. docs/results.md, "Verdict codes".
 */
@WrittenAsWord("finding code")
public enum FindingCode {
  /** A read missed another node's write: no figure of the run can be trusted. */
  COHERENCE(VALIDITY, 0),
  /** Coherence errors while a node had not joined the ring yet: not judged. */
  COHERENCE_INCONCLUSIVE(VALIDITY, 0),
  RUN_FAILED(VALIDITY, 0),
  /** Record locks on OCFS2 with o2cb: each node's own, never contended across nodes. */
  NODE_LOCAL_LOCKS(VALIDITY, 0),

  /** How a survivor of a scenario's fault fared. */
  FAULT_STALL(FAULTS, 1),
  /**
   * How the victim of a freeze or partition fared while it lasted: its work, and whether its agent
   * still answered (a partitioned node is alive but cut off from its cluster).
   */
  FAULT_VICTIM(FAULTS, 2),

  RATE_LIMIT(SCALING, 1),
  HALVED(SCALING, 2),
  SCALING_LOSS(SCALING, 3),
  SCALES_WELL(SCALING, 4),
  AGGREGATE_FLAT(SCALING, 5),
  TOGETHER(SCALING, 6),
  AGGREGATE(SCALING, 7),
  OUTLIER(SCALING, 0),
  OUTLIER_SOLO(SCALING, 0),

  STORAGE_BOUND(BOTTLENECK, 1),
  NETWORK_BOUND(BOTTLENECK, 1),
  CPU_BOUND(BOTTLENECK, 1),
  WAITING(BOTTLENECK, 1),
  /** Ping-pong's ring waits for itself, by design. */
  RING_WAITING(BOTTLENECK, 1),
  CLUSTER_LOCK_BOUND(BOTTLENECK, 1),
  NO_BOTTLENECK(BOTTLENECK, 2),
  /** Buffered writes still dirty at the end: beside a step's bottleneck, never instead of it. */
  PAGE_CACHE(BOTTLENECK, 0),

  NOT_TRUSTWORTHY(TRUST, 1),
  START_SKEW(TRUST, 2),
  NO_OVERLAP(TRUST, 3),
  SAME_MACHINE(TRUST, 4),
  UNSTEADY(TRUST, 5),
  OVERLAP(TRUST, 6),
  NOISY(TRUST, 7),

  ENVIRONMENT(SETUP, 0),
  SINGLE_MACHINE(SETUP, 0);

  private final FindingKind kind;
  private final int headlineRank;

  FindingCode(FindingKind kind, int headlineRank) {
    this.kind = kind;
    this.headlineRank = headlineRank;
  }

  /** What a finding of this code is about; a report groups the findings by it. */
  public FindingKind kind() {
    return kind;
  }

  /**
   * Among the findings of its kind, which leads the report: 1 before 2 and so on; 0 never leads on
   * its own (a validity finding leads when it makes the run invalid, by its severity).
   */
  public int headlineRank() {
    return headlineRank;
  }

  /** Whether a finding of this code may lead the report for its kind. */
  public boolean canLead() {
    return headlineRank > 0;
  }

  /** The code as run.json and the reports write it: {@code rate-limit}. */
  @Override
  public String toString() {
    return EnumWords.word(this);
  }
}

package lockstep.coordinator.model;

import java.util.Map;

/**
 * What a finding of the verdict is about, in the order a report groups them: whether the run is
 * valid at all, how the survivors of a scenario's fault fared, how it scaled, what bound it,
 * whether its figures can be trusted, and how the nodes were set up. Written to run.json as the
 * lower-case word.
 */
@WrittenAsWord("finding kind")
public enum FindingKind {
  VALIDITY,
  FAULTS,
  SCALING,
  BOTTLENECK,
  TRUST,
  SETUP;

  /** Every finding code, by the kind it belongs to (the one list of codes). */
  private static final Map<String, FindingKind> CODES =
      Map.ofEntries(
          Map.entry("coherence", VALIDITY),
          Map.entry("coherence-inconclusive", VALIDITY),
          Map.entry("run-failed", VALIDITY),
          Map.entry("node-local-locks", VALIDITY),
          Map.entry("fault-stall", FAULTS),
          Map.entry("together", SCALING),
          Map.entry("scales-well", SCALING),
          Map.entry("halved", SCALING),
          Map.entry("scaling-loss", SCALING),
          Map.entry("aggregate", SCALING),
          Map.entry("aggregate-flat", SCALING),
          Map.entry("rate-limit", SCALING),
          Map.entry("outlier", SCALING),
          Map.entry("outlier-solo", SCALING),
          Map.entry("storage-bound", BOTTLENECK),
          Map.entry("network-bound", BOTTLENECK),
          Map.entry("cpu-bound", BOTTLENECK),
          Map.entry("waiting", BOTTLENECK),
          Map.entry("ring-waiting", BOTTLENECK),
          Map.entry("cluster-lock-bound", BOTTLENECK),
          Map.entry("no-bottleneck", BOTTLENECK),
          Map.entry("page-cache", BOTTLENECK),
          Map.entry("start-skew", TRUST),
          Map.entry("no-overlap", TRUST),
          Map.entry("overlap", TRUST),
          Map.entry("noisy", TRUST),
          Map.entry("not-trustworthy", TRUST),
          Map.entry("unsteady", TRUST),
          Map.entry("same-machine", TRUST),
          Map.entry("environment", SETUP),
          Map.entry("single-machine", SETUP));

  /** The kind of a finding's code; codes this version does not know are setup notes. */
  public static FindingKind of(String code) {
    return CODES.getOrDefault(code, SETUP);
  }

  /** The heading a report gives the kind. */
  public String heading() {
    return switch (this) {
      case VALIDITY -> "Validity";
      case FAULTS -> "When a node failed";
      case SCALING -> "Scaling";
      case BOTTLENECK -> "Where the time went";
      case TRUST -> "How far to trust the figures";
      case SETUP -> "Setup";
    };
  }

  @Override
  public String toString() {
    return EnumWords.word(this);
  }
}

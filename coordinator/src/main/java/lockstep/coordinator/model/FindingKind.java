package lockstep.coordinator.model;

/**
 * What a finding of the verdict is about, in the order a report groups them: whether the run is
 * valid at all, how the survivors of a scenario's fault fared, how it scaled, what bound it,
 * whether its figures can be trusted, and how the nodes were set up. Each {@link FindingCode} has
 * one. Written to run.json as the lower-case word.
 */
@WrittenAsWord("finding kind")
public enum FindingKind {
  VALIDITY,
  FAULTS,
  SCALING,
  BOTTLENECK,
  TRUST,
  SETUP;

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

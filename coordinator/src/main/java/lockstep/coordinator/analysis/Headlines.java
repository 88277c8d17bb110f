package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;

/**
 * Puts the verdict in reading order: at most three headlines first (an invalid run's reason, what a
 * scenario's fault did to a survivor, the scaling result, the likely bottleneck of the step with
 * the most nodes, and the warning that most limits trust in the figures; within a kind the code
 * with the lowest {@link FindingCode#headlineRank}), then every other finding grouped by {@link
 * FindingKind}, the more severe first within a kind, the order they were found otherwise.
 */
final class Headlines {
  private Headlines() {}

  static List<Finding> order(RunRecord run, List<Finding> findings) {
    Set<Finding> heads = new LinkedHashSet<>();
    Optional<Finding> invalid =
        findings.stream().filter(f -> f.severity() == Severity.INVALID).findFirst();
    invalid.ifPresent(heads::add);
    // a run with faults is about what they did to the survivors
    leading(findings, FindingKind.FAULTS, f -> true).ifPresent(heads::add);
    leading(findings, FindingKind.SCALING, f -> true).ifPresent(heads::add);
    bottleneck(run, findings).ifPresent(heads::add);
    if (invalid.isEmpty()) {
      leading(findings, FindingKind.TRUST, f -> f.severity() == Severity.WARNING)
          .ifPresent(heads::add);
    }
    List<Finding> out = new ArrayList<>();
    heads.stream().limit(3).forEach(f -> out.add(f.asHeadline()));
    Set<Finding> led = new LinkedHashSet<>(heads.stream().limit(3).toList());
    findings.stream()
        .filter(f -> !led.contains(f))
        .sorted(
            Comparator.comparing(Finding::kind)
                .thenComparing(Finding::severity)
                .thenComparingInt(findings::indexOf))
        .forEach(out::add);
    return List.copyOf(out);
  }

  /** The finding of {@code kind} whose code leads (lowest rank; the first found of equals). */
  private static Optional<Finding> leading(
      List<Finding> findings, FindingKind kind, Predicate<Finding> also) {
    return findings.stream()
        .filter(f -> f.kind() == kind && f.type().canLead() && also.test(f))
        .min(Comparator.comparingInt(f -> f.type().headlineRank()));
  }

  /**
   * The bottleneck of the step that ran the most nodes together (the last such step of the plan);
   * "no bottleneck" (rank 2) leads only when nothing else does.
   */
  private static Optional<Finding> bottleneck(RunRecord run, List<Finding> findings) {
    Map<String, Integer> nodes = new HashMap<>();
    for (StepRecord s : run.steps()) {
      nodes.merge(s.group(), s.nodes().size(), Math::max);
    }
    return findings.stream()
        .filter(f -> f.kind() == FindingKind.BOTTLENECK && f.type().canLead())
        .max(
            Comparator.<Finding>comparingInt(f -> -f.type().headlineRank())
                .thenComparingInt(f -> nodes.getOrDefault(f.step(), 0))
                .thenComparingInt(findings::indexOf));
  }
}

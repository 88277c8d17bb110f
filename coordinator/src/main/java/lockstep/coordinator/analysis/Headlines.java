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
import lockstep.coordinator.model.FindingKind;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;

/**
 * Puts the verdict in reading order: at most three headlines first (an invalid run's reason, what a
 * scenario's fault did to a survivor, the scaling result, the likely bottleneck of the step with
 * the most nodes, and the warning that most limits trust in the figures), then every other finding
 * grouped by {@link FindingKind}, the more severe first within a kind, the order they were found
 * otherwise.
 */
final class Headlines {
  /** Which scaling finding leads, best first. */
  private static final List<String> SCALING =
      List.of(
          "rate-limit",
          "halved",
          "scaling-loss",
          "scales-well",
          "aggregate-flat",
          "together",
          "aggregate");

  /** Which trust warning leads, most damaging first. */
  private static final List<String> TRUST =
      List.of(
          "not-trustworthy",
          "start-skew",
          "no-overlap",
          "same-machine",
          "unsteady",
          "overlap",
          "noisy");

  private Headlines() {}

  static List<Finding> order(RunRecord run, List<Finding> findings) {
    Set<Finding> heads = new LinkedHashSet<>();
    Optional<Finding> invalid =
        findings.stream().filter(f -> f.severity() == Severity.INVALID).findFirst();
    invalid.ifPresent(heads::add);
    // a run with faults is about what they did to the survivors
    firstBy(findings, List.of(FaultEffects.CODE)).ifPresent(heads::add);
    firstBy(findings, SCALING).ifPresent(heads::add);
    bottleneck(run, findings).ifPresent(heads::add);
    if (invalid.isEmpty()) {
      firstBy(findings, TRUST, f -> f.severity() == Severity.WARNING).ifPresent(heads::add);
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

  private static Optional<Finding> firstBy(List<Finding> findings, List<String> codes) {
    return firstBy(findings, codes, f -> true);
  }

  private static Optional<Finding> firstBy(
      List<Finding> findings, List<String> codes, Predicate<Finding> also) {
    return findings.stream()
        .filter(f -> codes.contains(f.code()) && also.test(f))
        .min(Comparator.comparingInt(f -> codes.indexOf(f.code())));
  }

  /**
   * The bottleneck of the step that ran the most nodes together (the last such step of the plan);
   * "no bottleneck" leads only when nothing else does.
   */
  private static Optional<Finding> bottleneck(RunRecord run, List<Finding> findings) {
    Map<String, Integer> nodes = new HashMap<>();
    for (StepRecord s : run.steps()) {
      nodes.merge(s.group(), s.nodes().size(), Math::max);
    }
    return findings.stream()
        .filter(f -> f.kind() == FindingKind.BOTTLENECK && !"page-cache".equals(f.code()))
        .max(
            Comparator.<Finding>comparingInt(f -> "no-bottleneck".equals(f.code()) ? 0 : 1)
                .thenComparingInt(f -> nodes.getOrDefault(f.step(), 0))
                .thenComparingInt(findings::indexOf));
  }
}

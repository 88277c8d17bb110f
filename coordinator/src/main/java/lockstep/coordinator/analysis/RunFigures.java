package lockstep.coordinator.analysis;

import java.util.List;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.Fairness;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.ScalingPoint;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepSummary;

/**
 * A run's figures before its verdict: what {@link RunAnalyzer} computes from the steps and the
 * verdict rules read. {@link #analysis} is the one place an {@link Analysis} is put together.
 */
record RunFigures(
    List<NodeScaling> nodes,
    Double sumOfSolos,
    Double concurrentSumOfNodes,
    Double concurrentAggregate,
    Double aggregateEfficiency,
    Double meanNodeEfficiency,
    Double maxAbsSkewMillis,
    List<StepSummary> steps,
    List<ScalingPoint> scaling,
    List<OverlapWindow> windows,
    Fairness fairness,
    Double concurrentOverlapAggregate,
    List<String> environmentDifferences,
    List<FaultEffect> faultEffects) {

  RunFigures {
    nodes = List.copyOf(nodes);
    steps = List.copyOf(steps);
    scaling = List.copyOf(scaling);
    windows = List.copyOf(windows);
    environmentDifferences = List.copyOf(environmentDifferences);
    faultEffects = List.copyOf(faultEffects);
  }

  /**
   * The analysis: these figures with the verdict {@code findings} (in reading order), their
   * messages, and whether none makes the run invalid.
   */
  Analysis analysis(List<Finding> findings) {
    return new Analysis(
        nodes,
        sumOfSolos,
        concurrentSumOfNodes,
        concurrentAggregate,
        aggregateEfficiency,
        meanNodeEfficiency,
        maxAbsSkewMillis,
        findings.stream().map(Finding::message).toList(),
        steps,
        scaling,
        windows,
        fairness,
        concurrentOverlapAggregate,
        List.copyOf(findings),
        environmentDifferences,
        findings.stream().noneMatch(f -> f.severity() == Severity.INVALID),
        faultEffects);
  }
}

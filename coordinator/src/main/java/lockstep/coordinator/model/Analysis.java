package lockstep.coordinator.model;

import java.util.List;

/**
 * Solo vs concurrent. Efficiencies are concurrent / solo; null where a step is missing. Solo and
 * concurrent figures are means over the repeats.
 *
 * @param verdict plain sentences, most important first (the findings' messages)
 * @param steps one summary per plan step, in plan order
 * @param scaling the aggregate over node counts (solo, ramp steps, all)
 * @param windows the overlap window of every multi-node step record
 * @param findings the verdict with codes and severities
 * @param environmentDifferences one line per environment field that differs between nodes
 * @param valid false when a finding makes the run's figures untrustworthy (e.g. coherence errors)
 */
public record Analysis(
    List<NodeScaling> nodes,
    Double sumOfSolos,
    Double concurrentSumOfNodes,
    Double concurrentAggregate,
    Double aggregateEfficiency,
    Double meanNodeEfficiency,
    Double maxAbsSkewMillis,
    List<String> verdict,
    List<StepSummary> steps,
    List<ScalingPoint> scaling,
    List<OverlapWindow> windows,
    Fairness fairness,
    Double concurrentOverlapAggregate,
    List<Finding> findings,
    List<String> environmentDifferences,
    boolean valid,
    List<FaultEffect> faultEffects) {

  public Analysis {
    faultEffects = faultEffects == null ? List.of() : List.copyOf(faultEffects);
  }
}

package lockstep.coordinator.model;

import java.util.List;

/**
 * Solo vs concurrent. Efficiencies are concurrent / solo; null where a step is missing.
 *
 * @param verdict plain sentences, most important first
 */
public record Analysis(
        List<NodeScaling> nodes,
        Double sumOfSolos,
        Double concurrentSumOfNodes,
        Double concurrentAggregate,
        Double aggregateEfficiency,
        Double meanNodeEfficiency,
        Double maxAbsSkewMillis,
        List<String> verdict) {
}

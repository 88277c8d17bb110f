package lockstep.coordinator.analysis;

import java.util.Map;
import lockstep.coordinator.model.Fairness;

/** Jain's fairness index and the min/max ratio over the nodes' throughputs. */
public final class FairnessIndex {
  private FairnessIndex() {}

  public static Fairness of(Map<String, Double> byNode) {
    if (byNode.size() < 2) {
      return null;
    }
    double sum = 0;
    double sq = 0;
    String slowest = null;
    String fastest = null;
    for (var e : byNode.entrySet()) {
      double x = e.getValue();
      sum += x;
      sq += x * x;
      if (slowest == null || x < byNode.get(slowest)) {
        slowest = e.getKey();
      }
      if (fastest == null || x > byNode.get(fastest)) {
        fastest = e.getKey();
      }
    }
    double jain = sq == 0 ? 1 : sum * sum / (byNode.size() * sq);
    double max = byNode.get(fastest);
    return new Fairness(jain, max == 0 ? 1 : byNode.get(slowest) / max, slowest, fastest);
  }
}

package lockstep.coordinator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The plan's top-level 'ramp' field: node counts, e.g. [1, 2, 3]; empty means 1, 2, 4 ... all. */
public final class PlanFields {
  static final int MAX_NODES = 1024;

  private PlanFields() {}

  static List<Integer> ramp(YamlMapping top, List<PlanStep> plan) {
    JsonNode v = top.node("ramp");
    if (v == null) {
      return List.of();
    }
    if (!plan.contains(PlanStep.RAMP)) {
      throw top.error("ramp", "is given but the plan has no 'ramp' step (e.g. plan: [solo, ramp])");
    }
    if (!v.isArray() || v.isEmpty()) {
      throw top.error("ramp", "must be a non-empty list of node counts, e.g. [1, 2, 3]");
    }
    List<Integer> out = new ArrayList<>();
    for (JsonNode e : v) {
      if (!e.isIntegralNumber() || e.asLong() < 1 || e.asLong() > MAX_NODES) {
        throw top.error("ramp", "'" + e.asText() + "' is not a node count in 1 .. " + MAX_NODES);
      }
      if (out.contains(e.intValue())) {
        throw top.error("ramp", e.intValue() + " is listed twice");
      }
      out.add(e.intValue());
    }
    top.used().put("ramp", out);
    return List.copyOf(out);
  }

  /** The ramp's node counts for a cluster of {@code nodes}: as given, or 1, 2, 4 ... and nodes. */
  public static List<Integer> counts(List<Integer> ramp, int nodes) {
    if (!ramp.isEmpty()) {
      return ramp;
    }
    List<Integer> out = new ArrayList<>();
    for (int k = 1; k < nodes; k *= 2) {
      out.add(k);
    }
    out.add(nodes);
    return List.copyOf(out);
  }
}

package lockstep.coordinator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;

/**
 * The scenario's top-level {@code faults:} list, e.g. {@code [{at: 5s, node: node2, action: kill},
 * {at: 20s, node: node1, action: freeze, for: 10s}]}: what the lab does to a node during a step.
 * Which nodes exist is known only at run time (the inventory); a fault must fall inside a timed
 * workload's duration.
 */
final class FaultFields {
  static final int MAX_FAULTS = 16;

  private FaultFields() {}

  static List<Fault> read(YamlMapping top, long timedMillis, String source) {
    JsonNode v = top.node("faults");
    if (v == null) {
      return List.of();
    }
    if (!v.isArray() || v.isEmpty()) {
      throw top.error(
          "faults", "must be a non-empty list such as [{at: 5s, node: node2, action: kill}]");
    }
    if (v.size() > MAX_FAULTS) {
      throw top.error("faults", v.size() + " faults; at most " + MAX_FAULTS);
    }
    if (timedMillis <= 0) {
      throw top.error(
          "faults", "need a workload that runs for a time (duration:), so they fall inside it");
    }
    List<Fault> out = new ArrayList<>();
    List<Map<String, Object>> used = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      String at = "faults[" + i + "]";
      YamlMapping f = new YamlMapping(v.get(i), at, source);
      if (!f.has("at")) {
        throw f.error(at + ".at", "is required (when after the start instant, e.g. 5s)");
      }
      Duration when = f.duration("at", null, Duration.ZERO, Duration.ofHours(24));
      String node = f.requiredString("node");
      String word = f.requiredString("action");
      FaultAction action = FaultAction.named(word);
      if (action == null) {
        throw f.error(
            at + ".action",
            "'"
                + Echo.value(word)
                + "' is not one of "
                + Arrays.stream(FaultAction.values())
                    .map(FaultAction::toString)
                    .collect(Collectors.joining(", ")));
      }
      long forMillis = 0;
      if (action.lasts()) {
        if (!f.has("for")) {
          throw f.error(at + ".for", "is required for " + action + " (how long, e.g. 10s)");
        }
        forMillis = f.duration("for", null, Duration.ofMillis(100), Duration.ofHours(1)).toMillis();
      } else if (f.has("for")) {
        throw f.error(at + ".for", "a " + action + " does not end: leave 'for' out");
      }
      f.rejectUnknown();
      if (when.toMillis() >= timedMillis) {
        throw f.error(
            at + ".at",
            Echo.value(f.used().get("at").toString())
                + " is not inside the workload's "
                + Duration.ofMillis(timedMillis).toSeconds()
                + " s");
      }
      out.add(new Fault(when.toMillis(), node, action, forMillis));
      used.add(new LinkedHashMap<>(f.used()));
    }
    top.used().put("faults", used);
    return List.copyOf(out);
  }
}

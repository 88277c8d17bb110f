package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import lockstep.coordinator.model.AgentRecord;

/** Environment fields whose values differ between nodes, one line each. */
public final class EnvironmentDiff {
  private EnvironmentDiff() {}

  public static List<String> of(List<AgentRecord> agents) {
    List<String> out = new ArrayList<>();
    if (agents.size() < 2) {
      return out;
    }
    Map<String, Function<AgentRecord, String>> fields = new LinkedHashMap<>();
    fields.put("kernel", AgentRecord::kernel);
    fields.put("CPU count", a -> a.cpuCount() == 0 ? "" : Integer.toString(a.cpuCount()));
    fields.put("CPU model", AgentRecord::cpuModel);
    fields.put(
        "memory",
        a ->
            a.memoryBytes() == 0
                ? ""
                : String.format(Locale.ROOT, "%.1f GiB", a.memoryBytes() / (double) (1L << 30)));
    fields.put("file system", AgentRecord::fsType);
    fields.put("mount options", AgentRecord::mountOptions);
    fields.put("agent version", AgentRecord::version);
    TreeSet<String> keys = new TreeSet<>();
    agents.forEach(a -> keys.addAll(a.clusterSettings().keySet()));
    for (String k : keys) {
      fields.put(k, a -> a.clusterSettings().getOrDefault(k, "(not set)"));
    }
    for (var f : fields.entrySet()) {
      Map<String, String> values = new LinkedHashMap<>();
      agents.forEach(
          a -> values.put(a.node(), f.getValue().apply(a) == null ? "" : f.getValue().apply(a)));
      if (values.values().stream().distinct().count() > 1
          && values.values().stream().anyMatch(v -> !v.isEmpty())) {
        List<String> parts = new ArrayList<>();
        values.forEach((node, v) -> parts.add(node + " " + (v.isEmpty() ? "(unknown)" : v)));
        out.add(f.getKey() + " differs: " + String.join("; ", parts));
      }
    }
    return out;
  }
}

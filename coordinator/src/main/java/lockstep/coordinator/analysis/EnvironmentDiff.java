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
    fields.put("CPU count", EnvironmentDiff::cpuCount);
    fields.put("CPU model", AgentRecord::cpuModel);
    fields.put("memory", EnvironmentDiff::memory);
    fields.put("file system", AgentRecord::fsType);
    fields.put("mount options", AgentRecord::mountOptions);
    fields.put("agent version", AgentRecord::version);
    putClusterSettings(fields, agents);
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

  /** The agent's CPU count as text; "" when it did not tell. */
  public static String cpuCount(AgentRecord a) {
    return a.cpuCount() == 0 ? "" : Integer.toString(a.cpuCount());
  }

  /** The agent's memory in GiB ("15.6 GiB"); "" when it did not tell. */
  public static String memory(AgentRecord a) {
    return a.memoryBytes() == 0
        ? ""
        : String.format(Locale.ROOT, "%.1f GiB", a.memoryBytes() / (double) (1L << 30));
  }

  /**
   * A field for each cluster setting any of {@code agents} told, by name: its value, or "(not
   * set)".
   */
  public static void putClusterSettings(
      Map<String, Function<AgentRecord, String>> fields, List<AgentRecord> agents) {
    TreeSet<String> keys = new TreeSet<>();
    agents.forEach(a -> keys.addAll(a.clusterSettings().keySet()));
    for (String k : keys) {
      fields.put(k, a -> a.clusterSettings().getOrDefault(k, "(not set)"));
    }
  }
}

package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;
import lockstep.coordinator.model.AgentRecord;

/**
 * One line of a node's environment as the report shows it: its label, how it reads from an agent,
 * and whether nodes that differ in it are configured differently (an address, a host name or a path
 * differs between nodes by nature). {@link EnvironmentDiff} and the HTML report's environment table
 * both ask {@link #of}.
 */
public record EnvironmentField(
    String label, Function<AgentRecord, String> reader, boolean compared) {

  /**
   * The fields in the order they are shown, each cluster setting any of {@code agents} told last.
   */
  public static List<EnvironmentField> of(List<AgentRecord> agents) {
    List<EnvironmentField> fields = new ArrayList<>();
    fields.add(new EnvironmentField("address", AgentRecord::address, false));
    fields.add(new EnvironmentField("hostname", AgentRecord::hostname, false));
    fields.add(new EnvironmentField("kernel", AgentRecord::kernel, true));
    fields.add(new EnvironmentField("CPU count", EnvironmentField::cpuCount, true));
    fields.add(new EnvironmentField("CPU model", AgentRecord::cpuModel, true));
    fields.add(new EnvironmentField("memory", EnvironmentField::memory, true));
    fields.add(new EnvironmentField("root", AgentRecord::root, false));
    fields.add(new EnvironmentField("file system", AgentRecord::fsType, true));
    fields.add(new EnvironmentField("mount point", AgentRecord::mountPoint, false));
    fields.add(new EnvironmentField("mount source", AgentRecord::mountSource, false));
    fields.add(new EnvironmentField("mount options", AgentRecord::mountOptions, true));
    fields.add(new EnvironmentField("block device", AgentRecord::blockDevice, false));
    fields.add(new EnvironmentField("agent version", AgentRecord::version, true));
    TreeSet<String> settings = new TreeSet<>();
    agents.forEach(a -> settings.addAll(a.clusterSettings().keySet()));
    for (String k : settings) {
      fields.add(
          new EnvironmentField(k, a -> a.clusterSettings().getOrDefault(k, "(not set)"), true));
    }
    return fields;
  }

  /** The field's value on {@code agent}; "" when the agent did not tell. */
  public String valueOf(AgentRecord agent) {
    String v = reader.apply(agent);
    return v == null ? "" : v;
  }

  /** Compared, and at least two of {@code agents} told different values. */
  public boolean differs(List<AgentRecord> agents) {
    List<String> values = agents.stream().map(this::valueOf).toList();
    return compared
        && values.stream().distinct().count() > 1
        && values.stream().anyMatch(v -> !v.isEmpty());
  }

  private static String cpuCount(AgentRecord a) {
    return a.cpuCount() == 0 ? "" : Integer.toString(a.cpuCount());
  }

  private static String memory(AgentRecord a) {
    return a.memoryBytes() == 0
        ? ""
        : String.format(Locale.ROOT, "%.1f GiB", a.memoryBytes() / (double) (1L << 30));
  }
}

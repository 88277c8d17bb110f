package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import lockstep.coordinator.model.AgentRecord;

/**
 * One line of a node's environment as the report shows it: its label, how it reads from an agent,
 * and what of it must be alike on every node ({@code alike}; null: nothing, as an address, a host
 * name or a path differs between nodes by nature). {@link EnvironmentDiff} and the HTML report's
 * environment table both ask {@link #of}.
 */
public record EnvironmentField(
    String label, Function<AgentRecord, String> reader, Function<String, String> alike) {
  private static final Function<String, String> WHOLE = Function.identity();

  /**
   * Mount options that name the node's own or its server's address (NFS's clientaddr= differs on
   * every client by nature): left out when nodes' options are compared.
   */
  private static final Set<String> ADDRESS_OPTIONS =
      Set.of("clientaddr", "addr", "mountaddr", "mounthost");

  /**
   * The fields in the order they are shown, each cluster setting any of {@code agents} told last.
   */
  public static List<EnvironmentField> of(List<AgentRecord> agents) {
    List<EnvironmentField> fields = new ArrayList<>();
    fields.add(new EnvironmentField("address", AgentRecord::address, null));
    fields.add(new EnvironmentField("hostname", AgentRecord::hostname, null));
    fields.add(new EnvironmentField("kernel", AgentRecord::kernel, WHOLE));
    fields.add(new EnvironmentField("CPU count", EnvironmentField::cpuCount, WHOLE));
    fields.add(new EnvironmentField("CPU model", AgentRecord::cpuModel, WHOLE));
    fields.add(new EnvironmentField("memory", EnvironmentField::memory, WHOLE));
    fields.add(new EnvironmentField("root", AgentRecord::root, null));
    fields.add(new EnvironmentField("file system", AgentRecord::fsType, WHOLE));
    fields.add(new EnvironmentField("mount point", AgentRecord::mountPoint, null));
    fields.add(new EnvironmentField("mount source", AgentRecord::mountSource, null));
    fields.add(
        new EnvironmentField(
            "mount options", AgentRecord::mountOptions, EnvironmentField::withoutAddresses));
    fields.add(new EnvironmentField("block device", AgentRecord::blockDevice, null));
    fields.add(new EnvironmentField("agent version", AgentRecord::version, WHOLE));
    TreeSet<String> settings = new TreeSet<>();
    agents.forEach(a -> settings.addAll(a.clusterSettings().keySet()));
    for (String k : settings) {
      fields.add(
          new EnvironmentField(k, a -> a.clusterSettings().getOrDefault(k, "(not set)"), WHOLE));
    }
    return fields;
  }

  /** The field's value on {@code agent}; "" when the agent did not tell. */
  public String valueOf(AgentRecord agent) {
    String v = reader.apply(agent);
    return v == null ? "" : v;
  }

  /** Compared, and at least two of {@code agents} told values that are not alike. */
  public boolean differs(List<AgentRecord> agents) {
    if (alike == null) {
      return false;
    }
    List<String> values = agents.stream().map(this::valueOf).toList();
    return values.stream().map(alike).distinct().count() > 1
        && values.stream().anyMatch(v -> !v.isEmpty());
  }

  /** Mount options without those that name an address ({@link #ADDRESS_OPTIONS}). */
  static String withoutAddresses(String options) {
    return Arrays.stream(options.split(","))
        .filter(o -> !ADDRESS_OPTIONS.contains(o.split("=", 2)[0]))
        .collect(Collectors.joining(","));
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

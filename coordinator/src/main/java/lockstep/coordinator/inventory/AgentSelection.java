package lockstep.coordinator.inventory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * Which agents a command talks to: {@code --agents} (dns:/// names expanded), else {@code
 * --inventory}, else the scenario's own list; with their labels and roots when from an inventory.
 *
 * @param roots the root each agent's runs use (an inventory node's root:), by address; an agent not
 *     in it uses its default
 * @param watchOnly the addresses of the inventory's watch-only nodes ({@code role: watch})
 */
public record AgentSelection(
    List<String> addresses,
    Map<String, Map<String, String>> labels,
    Map<String, String> roots,
    Set<String> watchOnly) {
  public AgentSelection {
    addresses = List.copyOf(addresses);
    labels = Map.copyOf(labels);
    roots = Map.copyOf(roots);
    watchOnly = Set.copyOf(watchOnly);
  }

  public AgentSelection(
      List<String> addresses, Map<String, Map<String, String>> labels, Map<String, String> roots) {
    this(addresses, labels, roots, Set.of());
  }

  /** The root {@code address}'s runs use, "" for the agent's default. */
  public String root(String address) {
    return roots.getOrDefault(address, "");
  }

  /**
   * @param agents --agents, or null
   * @param inventory --inventory's nodes (read, and narrowed by --nodes), or null
   * @param fallback the scenario's agents (may be empty), used when both are null
   */
  public static AgentSelection choose(
      List<String> agents,
      Inventory inventory,
      List<String> fallback,
      String fallbackSource,
      AgentTargets targets) {
    if (agents != null && inventory != null) {
      throw new ScenarioException("give --agents or --inventory, not both");
    }
    if (inventory != null) {
      return new AgentSelection(
          AgentAddresses.validate(inventory.addresses(), inventory.source()),
          inventory.labelsByAddress(),
          inventory.rootsByAddress(),
          inventory.watchOnlyAddresses());
    }
    List<String> given = agents != null ? agents : fallback;
    String source = agents != null ? "--agents" : fallbackSource;
    AgentAddresses.validate(given, source);
    return new AgentSelection(
        AgentAddresses.validate(targets.expand(given, source), source), Map.of(), Map.of());
  }
}

package lockstep.coordinator.inventory;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * The cluster's nodes, read from one YAML file (see deploy/inventory.example.yaml).
 *
 * @param lab the directory of the `lockstep lab` whose guests these nodes are (its inventories say
 *     so), which carries out a scenario's faults; null for any other cluster
 */
public record Inventory(
    String source, List<InventoryNode> nodes, InventorySecurity security, Path lab) {
  public Inventory {
    nodes = List.copyOf(nodes);
  }

  public Inventory(String source, List<InventoryNode> nodes, InventorySecurity security) {
    this(source, nodes, security, null);
  }

  public Inventory(String source, List<InventoryNode> nodes) {
    this(source, nodes, InventorySecurity.NONE);
  }

  /**
   * Only the nodes named, in this inventory's order ({@code lockstep run --nodes}), and the
   * watch-only nodes, named or not (they run no workload: the file server stays in the picture); an
   * unknown name is refused, naming the file and the nodes it has.
   */
  public Inventory only(List<String> names) {
    List<String> known = nodes.stream().map(InventoryNode::name).toList();
    for (String n : names) {
      if (!known.contains(n)) {
        throw new ScenarioException(
            "--nodes: no node '" + n + "' in " + source + " (" + String.join(", ", known) + ")");
      }
    }
    return new Inventory(
        source,
        nodes.stream().filter(n -> n.watchOnly() || names.contains(n.name())).toList(),
        security,
        lab);
  }

  public List<String> addresses() {
    return nodes.stream().map(InventoryNode::address).toList();
  }

  /** The root each node's runs use, by agent address: the nodes whose inventory entry has one. */
  public Map<String, String> rootsByAddress() {
    Map<String, String> out = new LinkedHashMap<>();
    nodes.stream().filter(n -> n.root() != null).forEach(n -> out.put(n.address(), n.root()));
    return out;
  }

  /** The addresses of the watch-only nodes ({@code role: watch}). */
  public Set<String> watchOnlyAddresses() {
    Set<String> out = new LinkedHashSet<>();
    nodes.stream().filter(InventoryNode::watchOnly).forEach(n -> out.add(n.address()));
    return out;
  }

  /** Labels by agent address, for the agent records of a run. */
  public Map<String, Map<String, String>> labelsByAddress() {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    nodes.forEach(n -> out.put(n.address(), n.labels()));
    return out;
  }
}

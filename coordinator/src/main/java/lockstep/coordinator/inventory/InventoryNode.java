package lockstep.coordinator.inventory;

import java.util.Map;

/**
 * One node of an inventory file.
 *
 * @param address HOST:PORT the coordinator dials
 * @param root the agent's --root on that node
 * @param ssh [USER@]HOST for Ansible and {@code lockstep agents launch}; the host of address when
 *     absent
 * @param labels free-form key/value pairs, copied into results
 */
public record InventoryNode(
    String name, String address, String root, String ssh, Map<String, String> labels) {
  public InventoryNode {
    labels = Map.copyOf(labels);
  }

  /** The port of {@link #address}. */
  public int port() {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }

  /** The host of {@link #address}, without IPv6 brackets. */
  public String host() {
    return address.substring(0, address.lastIndexOf(':')).replace("[", "").replace("]", "");
  }
}

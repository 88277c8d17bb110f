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
 * @param sshPort the ssh port for Ansible (null: ssh's default or its configuration's)
 * @param listen HOST:PORT the agent listens on, when it differs from what the coordinator dials (a
 *     port forward or NAT in between); null: 0.0.0.0 and the port of address
 * @param watchOnly {@code role: watch}: the node's agent runs no workload, it only samples the
 *     node's resources in every step (a node that serves the file system: an NFS server)
 */
public record InventoryNode(
    String name,
    String address,
    String root,
    String ssh,
    Map<String, String> labels,
    Integer sshPort,
    String listen,
    boolean watchOnly) {
  /** {@code role:}'s values: the default, and watch-only. */
  public static final String ROLE_WORKLOAD = "workload";

  public static final String ROLE_WATCH = "watch";

  public InventoryNode {
    labels = Map.copyOf(labels);
  }

  public InventoryNode(
      String name, String address, String root, String ssh, Map<String, String> labels) {
    this(name, address, root, ssh, labels, null, null, false);
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

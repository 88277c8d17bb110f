package lockstep.coordinator.lab;

import java.util.List;

/**
 * One guest of the lab and where everything of it is: every port below is on 127.0.0.1 of the lab's
 * network namespace (never the host's), every address on the guests' own segments.
 *
 * @param index 1 or 2
 * @param sshPort forwarded to the guest's 22
 * @param clusterPort this guest's end of the cluster link's UDP socket pair
 * @param peerClusterPort the other guest's end
 */
public record LabNode(int index, int sshPort, int clusterPort, int peerClusterPort) {
  public String name() {
    return "node" + index;
  }

  /** The forwarded port the coordinator dials for the stack's agent (TCP and UDP). */
  public int agentPort(Stack stack) {
    return stack.guestPort() + index;
  }

  /** The address on the cluster segment (clu0), as corosync.conf and /etc/hosts have it. */
  public String clusterAddress() {
    return "192.168.77." + index;
  }

  public String mgmtMac() {
    return "52:54:00:00:00:1" + index;
  }

  public String clusterMac() {
    return "52:54:00:00:01:0" + index;
  }

  /** The export of this node's private disk in the storage daemon. */
  public String privateExport() {
    return "priv" + index;
  }

  /** The two nodes of the lab. */
  public static List<LabNode> all() {
    return List.of(new LabNode(1, 2221, 10001, 10002), new LabNode(2, 2222, 10002, 10001));
  }

  public static LabNode named(String name) {
    for (LabNode n : all()) {
      if (n.name().equals(name)) {
        return n;
      }
    }
    throw new LabException("no node '" + name + "' in the lab (node1, node2)");
  }
}

package lockstep.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One guest of the lab. Everything of it follows from its index: its name, the ports forwarded to
 * it on 127.0.0.1 of the lab's namespace (never the host's), its MAC addresses, its tap on the
 * cluster switch, its address on the cluster segment and its private disk.
 *
 * @param index 1..{@link #MAX}
 * @param role what the node is in the lab's stacks
 */
public record LabNode(int index, Role role) {
  /** The most guests a lab boots (the image's .link files and /etc/hosts name this many). */
  public static final int MAX = 4;

  /** The fewest: a cluster. */
  public static final int MIN = 2;

  /** What a node is in the stacks that are up. */
  public enum Role {
    /** Mounts each stack's file system and runs its agents: a cluster member, or a client. */
    CLIENT,
    /**
     * Serves a stack's storage to the clients (a file server) and mounts none of the shared-disk
     * stacks; a node of the lab all the same (booted, reachable, recovered).
     */
    SERVER;

    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public LabNode {
    if (index < 1 || index > MAX) {
      throw new LabException("node index " + index + " is not 1.." + MAX);
    }
  }

  public String name() {
    return "node" + index;
  }

  /** The forwarded port of the guest's sshd. */
  public int sshPort() {
    return 2220 + index;
  }

  /** The forwarded port the coordinator dials for the guest's agent (TCP and UDP). */
  public int agentPort() {
    return LabAgent.GUEST_PORT + index;
  }

  /** The address on the cluster segment (clu0), as corosync.conf and /etc/hosts have it. */
  public String clusterAddress() {
    return "192.168.77." + index;
  }

  public String mgmtMac() {
    return String.format(Locale.ROOT, "52:54:00:00:00:%02x", 0x10 + index);
  }

  public String clusterMac() {
    return String.format(Locale.ROOT, "52:54:00:00:01:%02x", index);
  }

  /** The node's port on the cluster switch (a tap in the lab's namespace). */
  public String tap() {
    return "lstap" + index;
  }

  /** The export of this node's private disk in the storage daemon. */
  public String privateExport() {
    return "priv" + index;
  }

  public boolean client() {
    return role == Role.CLIENT;
  }

  /**
   * The lab's nodes: node1..node{count}, the last {@code servers} of them servers, the others
   * clients.
   */
  public static List<LabNode> of(int count, int servers) {
    if (count < MIN || count > MAX) {
      throw new LabException("--nodes: " + count + " is outside " + MIN + ".." + MAX);
    }
    if (servers < 0 || count - servers < MIN) {
      throw new LabException(
          "--servers: "
              + servers
              + " of "
              + count
              + " nodes leaves fewer than "
              + MIN
              + " clients");
    }
    List<LabNode> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(new LabNode(i, i > count - servers ? Role.SERVER : Role.CLIENT));
    }
    return List.copyOf(out);
  }

  /** The node of this name among {@code nodes}. */
  public static LabNode named(String name, List<LabNode> nodes) {
    for (LabNode n : nodes) {
      if (n.name().equals(name)) {
        return n;
      }
    }
    throw new LabException(
        "no node '"
            + name
            + "' in the lab ("
            + String.join(", ", nodes.stream().map(LabNode::name).toList())
            + ")");
  }

  /** The clients among {@code nodes}: the members of every shared-disk stack. */
  public static List<LabNode> clients(List<LabNode> nodes) {
    return nodes.stream().filter(LabNode::client).toList();
  }
}

package lockstep.lab;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inventory of one stack of the lab (deploy/inventory.example.yaml's format), what {@code
 * lockstep run --inventory} takes inside the lab's namespace: each node's forwarded agent port, the
 * port its agent listens on in the guest, its ssh port, the stack's root among the agent's, the
 * lab's mTLS files, and labels (copied into results) saying how the lab ran.
 */
final class LabInventory {
  private LabInventory() {}

  /** Labels of every node: the accelerator, the stack and the lab settings that concern it. */
  static Map<String, String> labels(Stack stack, LabState state) {
    Map<String, String> l = new LinkedHashMap<>();
    l.put("lab-accel", state.accel());
    l.put("lab-cpus", Integer.toString(state.cpus()));
    l.put("lab-nodes", Integer.toString(state.clients().size()));
    l.put("lab-stack", stack.word());
    for (LabSetting s : LabSetting.values()) {
      if (s.stack() == null || s.stack() == stack) {
        String v = state.setting(s.key());
        if (v != null) {
          l.put("lab-" + s.key().replace('_', '-'), v);
        }
      }
    }
    return l;
  }

  static String yaml(Stack stack, LabState state, Path inventoryDir, Path certs) {
    Path rel = inventoryDir.relativize(certs);
    StringBuilder b = new StringBuilder();
    b.append("# The lab's ")
        .append(stack.word())
        .append(" nodes, written by `lockstep lab up ")
        .append(stack.word())
        .append("` (rewritten by `lockstep lab set`).\n")
        .append("# Addresses are on 127.0.0.1 of the lab's network namespace ")
        .append(state.namespace())
        .append(":\n#   ip netns exec ")
        .append(state.namespace())
        .append(" ./lockstep run SCENARIO --inventory THIS_FILE\n")
        .append("# lab: the lab these nodes are guests of, which carries out a scenario's faults\n")
        .append("lab: ")
        .append(inventoryDir.toAbsolutePath().getParent())
        .append("\nsecurity: {ca: ")
        .append(rel.resolve("ca.pem"))
        .append(", cert: ")
        .append(rel.resolve("coordinator.pem"))
        .append(", key: ")
        .append(rel.resolve("coordinator-key.pem"))
        .append("}\nnodes:\n");
    Map<String, String> labels = labels(stack, state);
    for (LabNode n : state.clients()) {
      node(b, n, stack.agentRoot(), labels);
    }
    for (LabNode n : stack.watchers(state)) {
      b.append("  # serves ").append(stack.word()).append(": its resources in every step\n");
      node(b, n, Stack.WATCH_ROOT, labels);
      b.append("    role: watch\n");
    }
    return b.toString();
  }

  /**
   * These guests with their agents' addresses and ssh ports, for the lab's own use: {@code lockstep
   * certs --inventory} (every guest) and the playbook (the clients, or the servers). The roots are
   * the playbook's own (lockstep_services), not these.
   */
  static String nodes(List<LabNode> nodes) {
    StringBuilder b =
        new StringBuilder("# guests of the lab, written by lockstep lab for its deploy\nnodes:\n");
    for (LabNode n : nodes) {
      node(b, n, n.client() ? Stack.values()[0].agentRoot() : Stack.WATCH_ROOT, Map.of());
    }
    return b.toString();
  }

  private static void node(StringBuilder b, LabNode n, String root, Map<String, String> labels) {
    b.append("  - name: ")
        .append(n.name())
        .append("\n    address: 127.0.0.1:")
        .append(n.agentPort())
        .append("\n    listen: 0.0.0.0:")
        .append(LabAgent.GUEST_PORT)
        .append("\n    root: ")
        .append(root)
        .append("\n    ssh: root@127.0.0.1\n    ssh-port: ")
        .append(n.sshPort())
        .append("\n    labels: {");
    List<String> kv =
        labels.entrySet().stream().map(e -> e.getKey() + ": " + quote(e.getValue())).toList();
    b.append(String.join(", ", kv)).append("}\n");
  }

  private static String quote(String v) {
    return v.matches("[A-Za-z0-9._/-]+") ? v : "'" + v.replace("'", "''") + "'";
  }
}

package lockstep.lab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The lab's network namespace, holding every QEMU process of the lab: {@code lo}, and the cluster
 * switch (a bridge with one tap per guest, no address: the guests' cluster segment is theirs
 * alone). Nothing in it is routed anywhere else.
 */
record Netns(String name, Commands commands) {
  static final String DEFAULT_NAME = "lockstep-lab";

  /** The bridge every guest's cluster NIC is plugged into. */
  static final String SWITCH = "lsclu";

  /**
   * The namespace of the lab in {@code dir}: lockstep-lab for the default directory, else one named
   * after the directory (so a test's lab and a user's never share one).
   */
  static String nameFor(Path dir) {
    if (dir.toAbsolutePath().normalize().equals(LabConfig.DEFAULT_DIR)) {
      return DEFAULT_NAME;
    }
    return DEFAULT_NAME
        + "-"
        + Integer.toHexString(dir.toAbsolutePath().normalize().toString().hashCode() & 0xfffffff);
  }

  /** {@code cmd} run inside the namespace. */
  static List<String> exec(String namespace, List<String> cmd) {
    List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
    c.addAll(cmd);
    return c;
  }

  List<String> exec(List<String> cmd) {
    return exec(name, cmd);
  }

  boolean exists() {
    return commands
        .run(List.of("ip", "netns", "list"), Duration.ofSeconds(10))
        .stdout()
        .lines()
        .anyMatch(l -> l.equals(name) || l.startsWith(name + " "));
  }

  void create() {
    if (!exists()) {
      commands
          .run(List.of("ip", "netns", "add", name), Duration.ofSeconds(10))
          .orThrow("ip netns add");
    }
    commands
        .run(List.of("ip", "-n", name, "link", "set", "lo", "up"), Duration.ofSeconds(10))
        .orThrow("ip link set lo up");
  }

  /**
   * The cluster switch: a bridge, and a tap per node on it (QEMU opens the tap by name from inside
   * the namespace). The bridge forwards at once (no STP, no learning delay).
   */
  void createSwitch(List<LabNode> nodes) {
    ip("link", "add", SWITCH, "type", "bridge", "stp_state", "0", "forward_delay", "0");
    ip("link", "set", SWITCH, "up");
    for (LabNode n : nodes) {
      ip("tuntap", "add", "dev", n.tap(), "mode", "tap");
      ip("link", "set", n.tap(), "master", SWITCH);
      ip("link", "set", n.tap(), "up");
    }
  }

  /**
   * The node's port on the switch down (true) or up again: a partition as a switch or a cable
   * beyond the node's NIC makes it. The guest's own NIC stays up; what it sends is lost, and it
   * hears nothing.
   */
  void cut(LabNode n, boolean off) {
    ip("link", "set", n.tap(), off ? "down" : "up");
  }

  private void ip(String... args) {
    List<String> c = new ArrayList<>(List.of("ip", "-n", name));
    c.addAll(List.of(args));
    commands.run(c, Duration.ofSeconds(10)).orThrow(String.join(" ", c));
  }

  /** Pids of processes still in the namespace. */
  List<Long> pids() {
    if (!exists()) {
      return List.of();
    }
    return commands
        .run(List.of("ip", "netns", "pids", name), Duration.ofSeconds(10))
        .stdout()
        .lines()
        .map(String::strip)
        .filter(l -> l.matches("\\d+"))
        .map(Long::parseLong)
        .toList();
  }

  void delete() {
    if (exists()) {
      commands
          .run(List.of("ip", "netns", "del", name), Duration.ofSeconds(10))
          .orThrow("ip netns del");
    }
  }
}

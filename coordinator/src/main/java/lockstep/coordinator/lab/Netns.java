package lockstep.coordinator.lab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The lab's network namespace: only {@code lo}, holding every QEMU process of the lab. */
record Netns(String name, Commands commands) {
  static final String DEFAULT_NAME = "lockstep-lab";

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

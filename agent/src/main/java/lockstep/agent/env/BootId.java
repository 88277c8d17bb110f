package lockstep.agent.env;

import java.nio.file.Path;

/**
 * This boot of the host, from /proc/sys/kernel/random/boot_id: two agents with the same hostname
 * and boot id run on one machine (one kernel, one clock, the same hardware).
 */
public final class BootId {
  private BootId() {}

  public static String current() {
    return of(Path.of("/"));
  }

  /** The boot id read under {@code base}; empty when the file is missing or unreadable. */
  public static String of(Path base) {
    return NodeEnvironment.firstLine(base.resolve("proc/sys/kernel/random/boot_id")).orElse("");
  }
}

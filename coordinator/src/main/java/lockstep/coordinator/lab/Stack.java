package lockstep.coordinator.lab;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A cluster file system stack of the lab. Each has its own shared disk, mount point, agent service
 * and guest port, so both can be up at once on the same guests.
 */
public enum Stack {
  /** corosync 3 + dlm_controld + GFS2 (lock_dlm) on a raw shared file. */
  GFS2(7070),
  /** o2cb + OCFS2 on the disk the storage daemon serves through a shared throttle group. */
  OCFS2(7080);

  private final int guestPort;

  Stack(int guestPort) {
    this.guestPort = guestPort;
  }

  /** The stack's name as users type it and as the guest scripts, services and paths use it. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Where the stack's file system is mounted in every guest. */
  public String mountPoint() {
    return "/mnt/" + word();
  }

  /** The agents' root on the cluster file system. */
  public String agentRoot() {
    return mountPoint() + "/lockstep";
  }

  /** The port the stack's agent listens on inside a guest (TCP gRPC and UDP clock probes). */
  public int guestPort() {
    return guestPort;
  }

  /** The agent's systemd unit (the project's lockstep-agent.service under another name). */
  public String service() {
    return "lockstep-agent-" + word();
  }

  public static Stack parse(String s) {
    for (Stack st : values()) {
      if (st.word().equals(s.toLowerCase(Locale.ROOT))) {
        return st;
      }
    }
    throw new LabException(
        "unknown stack '"
            + s
            + "' (known: "
            + Arrays.stream(values()).map(Stack::word).collect(Collectors.joining(", "))
            + ")");
  }
}

package lockstep.lab;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A cluster file system stack of the lab. Each has its own storage, mount point and agent root, so
 * all can be up at once on the same guests, served by each client's one agent ({@link LabAgent}).
 */
public enum Stack {
  /** corosync 3 + dlm_controld + GFS2 (lock_dlm) on a raw shared file. */
  GFS2,
  /** o2cb + OCFS2 on the disk the storage daemon serves through a shared throttle group. */
  OCFS2,
  /**
   * The kernel's nfsd on the lab's first server node, exporting its private disk (throttled by the
   * storage daemon as OCFS2's shared disk is); the clients mount it over the cluster switch.
   */
  NFS;

  /** Whether the stack needs a server node ({@code lab up --servers}) beside its clients. */
  public boolean served() {
    return this == NFS;
  }

  /** The directory the NFS server exports (on its private disk). */
  static final String NFS_EXPORT = "/mnt/priv/nfs";

  /**
   * Where a server's watch-only agent (inventory role: watch) has its root: on the disk the server
   * exports, so that the agent's samples name that device, beside the export and not in it.
   */
  static final String WATCH_MOUNT_POINT = "/mnt/priv";

  static final String WATCH_ROOT = WATCH_MOUNT_POINT + "/lockstep";

  /** The nodes that serve the stack and only watch in its runs: its server (NFS), else none. */
  List<LabNode> watchers(LabState state) {
    return served() ? List.of(state.nfsServer()) : List.of();
  }

  /** The stack's name as users type it and as the guest scripts, services and paths use it. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Where the stack's file system is mounted in every guest. */
  public String mountPoint() {
    return "/mnt/" + word();
  }

  /** The agents' root on the cluster file system (one of each guest's agent's roots). */
  public String agentRoot() {
    return mountPoint() + "/lockstep";
  }

  /**
   * o2hb's dead threshold in the lab (O2CB_HEARTBEAT_THRESHOLD): a node whose disk heartbeat has
   * been missing for (threshold - 1) x 2 s is dead, 30 s here instead of the package's 62 s: a
   * killed OCFS2 node stalls the survivors for half as long, and no measurement needs the longer
   * wait. Busy guests keep their heartbeat well within it (a heartbeat write is one block every 2
   * s).
   */
  public static final int O2CB_DEAD_THRESHOLD = 16;

  /**
   * corosync's token timeout as the lab's corosync.conf sets it (corosync's own default is 3000 ms:
   * a guest held off the host's CPU for that long split a three-node lab; lab-node.sh).
   */
  static final long COROSYNC_TOKEN_MILLIS = 5_000;

  /** ... plus this per member beyond two (token_coefficient). */
  static final long COROSYNC_TOKEN_COEFFICIENT_MILLIS = 650;

  /** o2cb's default network idle timeout, which the lab keeps. */
  static final long O2NET_IDLE_MILLIS = 30_000;

  /**
   * Why this stack's cluster has written off a member that was silent (frozen, or cut off) for
   * {@code silentMillis}, or null while it is still one: silent for longer than corosync's token
   * timeout (GFS2: the others form a membership without it) or o2net's idle timeout (OCFS2). From
   * the timeouts, not by asking a survivor, so that a fault ends at its time (an ssh round under
   * emulation takes seconds).
   */
  String writtenOff(String node, int members, long silentMillis) {
    return switch (this) {
      case GFS2 -> {
        long token =
            COROSYNC_TOKEN_MILLIS + Math.max(0, members - 2) * COROSYNC_TOKEN_COEFFICIENT_MILLIS;
        yield silentMillis >= token
            ? node
                + " was silent for longer than corosync's token timeout ("
                + token
                + " ms), so the others formed a membership without it"
            : null;
      }
      case OCFS2 ->
          silentMillis >= O2NET_IDLE_MILLIS
              ? "o2net drops a node silent for " + O2NET_IDLE_MILLIS / 1000 + " s"
              : null;
      // an NFS server has no membership: a silent client's state is kept until its lease
      // expires and, since Linux 5.19 (the courteous server), until another client conflicts
      case NFS -> null;
    };
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

package lockstep.coordinator.analysis;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import lockstep.agent.v1.LockKind;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;

/**
 * What the run's file system is, as far as the verdict must know: a local one (one machine's disk
 * or memory, no lock manager, no rate limit) or a shared one whose locks go through a lock manager
 * (GFS2 and OCFS2's DLM, GlusterFS's bricks, NFS's lock manager, Ceph's MDS, Lustre's LDLM).
 */
final class FileSystems {
  private static final Set<String> LOCAL =
      Set.of(
          "ext2",
          "ext3",
          "ext4",
          "xfs",
          "btrfs",
          "tmpfs",
          "ramfs",
          "f2fs",
          "zfs",
          "overlay",
          "vfat",
          "exfat",
          "jfs",
          "reiserfs",
          "bcachefs",
          "nilfs2");

  private FileSystems() {}

  /** Whether every agent's root is on a local file system (by /proc/self/mountinfo's type). */
  static boolean allLocal(RunRecord run) {
    return !run.agents().isEmpty() && run.agents().stream().allMatch(FileSystems::local);
  }

  static boolean local(AgentRecord a) {
    return a.fsType() != null && LOCAL.contains(a.fsType().toLowerCase(Locale.ROOT));
  }

  /** The run's file system type when every agent has the same one, else null. */
  static String common(RunRecord run) {
    return run.agents().stream().map(AgentRecord::fsType).distinct().count() == 1
        ? run.agents().get(0).fsType()
        : null;
  }

  /** Why record locks on OCFS2 with o2cb are node-local, in words. */
  static final String NODE_LOCAL_RECORD_LOCKS =
      "on OCFS2 with the o2cb cluster stack, fcntl and OFD (record) locks are each node's own: o2cb"
          + " has no cluster-wide POSIX locks, so two nodes can hold the same byte's lock at once."
          + " flock is cluster-wide there; record locks need OCFS2 on the user-space stack"
          + " (corosync and dlm_controld).";

  /**
   * Why the run's locks cannot contend across nodes, in words, or empty where they can: record
   * locks (fcntl, OFD) on OCFS2 with the o2cb stack (as every node's environment tells:
   * ocfs2:cluster_stack o2cb); on NFS, a node mounted with {@code local_lock} covering the run's
   * lock kind ({@code all}; {@code posix} for record locks, {@code flock} for flock) or with {@code
   * nolock} (NFSv3: no lock reaches the server), whose locks the other nodes never see.
   */
  static Optional<String> nodeLocalLocks(RunRecord run) {
    LockKind lock = run.lockKind();
    boolean record = lock == LockKind.LOCK_KIND_FCNTL || lock == LockKind.LOCK_KIND_OFD;
    if (!record && lock != LockKind.LOCK_KIND_FLOCK) {
      return Optional.empty();
    }
    if (record
        && run.agents().stream().allMatch(a -> "ocfs2".equals(a.fsType()))
        && everyAgent(run, "ocfs2:cluster_stack", "o2cb")) {
      return Optional.of(NODE_LOCAL_RECORD_LOCKS);
    }
    if (run.agents().isEmpty() || !run.agents().stream().allMatch(a -> NFS.contains(a.fsType()))) {
      return Optional.empty();
    }
    String kind = record ? "posix" : "flock";
    // nolock first: it is what the admin wrote, and the kernel reads it back with local_lock=all
    List<String> nolock = nodesWith(run, "nfs:lock", Set.of("off"));
    if (!nolock.isEmpty()) {
      return Optional.of(
          "on NFS mounted with nolock ("
              + String.join(", ", nolock)
              + "), no lock reaches the server's lock manager (NFSv3's NLM): each node grants its"
              + " own, so two nodes can hold the same lock at once. Mount without nolock, with"
              + " rpcbind and rpc.statd running, for locks the nodes share.");
    }
    List<String> localLock = nodesWith(run, "nfs:local_lock", Set.of("all", kind));
    if (!localLock.isEmpty()) {
      String values =
          String.join(
              "/",
              run.agents().stream()
                  .filter(x -> localLock.contains(x.node()))
                  .map(x -> x.clusterSettings().get("nfs:local_lock"))
                  .distinct()
                  .sorted()
                  .toList());
      return Optional.of(
          "on NFS mounted with local_lock="
              + values
              + " ("
              + String.join(", ", localLock)
              + "), the client grants "
              + (record ? "fcntl and OFD" : "flock")
              + " locks itself and never asks the server, so two nodes can hold the same lock at"
              + " once. Mount with local_lock=none (the default) for locks the nodes share.");
    }
    return Optional.empty();
  }

  /** NFS's file system types: v2/v3 mounts, v4 mounts. */
  private static final Set<String> NFS = Set.of("nfs", "nfs4");

  /**
   * The nodes whose agents report {@code setting} as one of {@code values} (an agent that reports
   * no such setting is none of them: Set.of refuses to look for null).
   */
  private static List<String> nodesWith(RunRecord run, String setting, Set<String> values) {
    return run.agents().stream()
        .filter(
            a -> {
              String v = a.clusterSettings() == null ? null : a.clusterSettings().get(setting);
              return v != null && values.contains(v);
            })
        .map(AgentRecord::node)
        .toList();
  }

  /** Whether every agent (there is one at least) reports {@code setting} as {@code value}. */
  private static boolean everyAgent(RunRecord run, String setting, String value) {
    return !run.agents().isEmpty()
        && run.agents().stream()
            .allMatch(
                a -> a.clusterSettings() != null && value.equals(a.clusterSettings().get(setting)));
  }

  /** What a lock on the run's file system waits on when another node holds it, in words. */
  static String lockManager(RunRecord run) {
    String fs = common(run);
    if (fs == null) {
      return "the file system's lock manager";
    }
    return switch (fs.toLowerCase(Locale.ROOT)) {
      case "gfs2" -> "the cluster's DLM (fcntl locks through dlm_controld, flock through glocks)";
      case "ocfs2" ->
          everyAgent(run, "ocfs2:cluster_stack", "o2cb")
              ? "o2dlm (OCFS2's o2cb cluster stack)"
              : "the cluster stack's DLM";
      case "fuse.glusterfs", "glusterfs" -> "the GlusterFS bricks' lock translator";
      case "nfs", "nfs4" ->
          run.lockKind() == LockKind.LOCK_KIND_FLOCK
              ? "the NFS server's lock manager (flock goes there as a whole-file POSIX lock: Linux"
                  + " has emulated flock so on NFS since 2.6.12, and it conflicts with fcntl locks"
                  + " on the file from any node)"
              : "the NFS server's lock manager";
      case "ceph", "fuse.ceph" -> "the Ceph MDS";
      case "lustre" -> "Lustre's lock manager (LDLM)";
      default -> "the file system's lock manager";
    };
  }
}

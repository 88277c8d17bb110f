package lockstep.coordinator.analysis;

import java.util.Locale;
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

  /** Why {@link #nodeLocalRecordLocks} holds, in words. */
  static final String NODE_LOCAL_RECORD_LOCKS =
      "on OCFS2 with the o2cb cluster stack, fcntl and OFD (record) locks are each node's own: o2cb"
          + " has no cluster-wide POSIX locks, so two nodes can hold the same byte's lock at once."
          + " flock is cluster-wide there; record locks need OCFS2 on the user-space stack"
          + " (corosync and dlm_controld).";

  /**
   * Whether the run takes record locks (fcntl, OFD) on OCFS2 with the o2cb stack, which keeps them
   * node-local (as every node's environment tells: ocfs2:cluster_stack o2cb).
   */
  static boolean nodeLocalRecordLocks(RunRecord run) {
    LockKind lock = run.lockKind();
    return (lock == LockKind.LOCK_KIND_FCNTL || lock == LockKind.LOCK_KIND_OFD)
        && run.agents().stream().allMatch(a -> "ocfs2".equals(a.fsType()))
        && everyAgent(run, "ocfs2:cluster_stack", "o2cb");
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
      case "nfs", "nfs4" -> "the NFS server's lock manager";
      case "ceph", "fuse.ceph" -> "the Ceph MDS";
      case "lustre" -> "Lustre's lock manager (LDLM)";
      default -> "the file system's lock manager";
    };
  }
}

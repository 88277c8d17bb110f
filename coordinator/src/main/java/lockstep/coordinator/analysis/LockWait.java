package lockstep.coordinator.analysis;

import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.RunRecord;

/**
 * What the workers of a lock workload wait on when they sit in lock calls, in words that know the
 * workload and the file system: ping-pong's ring waits for itself by design, a local file system
 * has no lock manager or rate limit to wait on, a cluster file system's locks go through its lock
 * manager.
 *
 * @param code the finding's code: WAITING, or RING_WAITING for ping-pong's ring
 * @param onWhat what follows "the nodes wait" / "node X waits"
 */
record LockWait(FindingCode code, String onWhat) {
  /** The participants in a step: the workload's workers on each of the step's nodes. */
  private static long participants(RunRecord run, int stepNodes) {
    return (long) run.kind().workers(run.workload()) * Math.max(1, stepNodes);
  }

  /** When nothing more is known of the file system. */
  static final LockWait SHARED =
      new LockWait(
          FindingCode.WAITING, "on something shared (a cluster lock manager or a rate limit)");

  /**
   * For a step of {@code stepNodes} nodes of a run of a lock workload; null for a workload that
   * takes no locks.
   */
  static LockWait of(RunRecord run, int stepNodes) {
    if (!run.takesLocks()) {
      return null;
    }
    boolean local = FileSystems.allLocal(run);
    if (run.kind() == WorkloadKind.PING_PONG && participants(run, stepNodes) > 1) {
      return new LockWait(
          FindingCode.RING_WAITING,
          "for each other in the ping-pong ring, by design (each lock call waits until the"
              + " neighbour holding that byte lets go)"
              + (local
                  ? ""
                  : "; between nodes each hand-over also goes through "
                      + FileSystems.lockManager(run)));
    }
    if (local && run.kind() == WorkloadKind.PING_PONG) {
      return new LockWait(
          FindingCode.WAITING,
          "on the kernel's lock calls alone (one process in the ring: nobody else holds its"
              + " bytes)");
    }
    if (local) {
      return new LockWait(
          FindingCode.WAITING,
          "for locks other workers on this machine hold (a local file system has no lock manager"
              + " and no rate limit)");
    }
    if (FileSystems.common(run) == null
        || "the file system's lock manager".equals(FileSystems.lockManager(run))) {
      return SHARED;
    }
    // dlm_controld's plock rate limit holds back a DLM's POSIX locks only: a node that runs
    // dlm_controld for another file system (the lab's clients do) says nothing of NFS's locks
    String manager = FileSystems.lockManager(run);
    String limit = manager.contains("DLM") ? RateLimits.describe(run) : null;
    // (a lone ping-pong process on a cluster file system waits on its lock manager alone)
    return new LockWait(FindingCode.WAITING, "on " + manager + (limit == null ? "" : ", " + limit));
  }
}

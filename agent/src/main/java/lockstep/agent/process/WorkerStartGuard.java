package lockstep.agent.process;

/**
 * Whether a fleet of worker processes can be ready before the Prepare call's deadline (the
 * coordinator's, as the service passes it on): the start of one worker (launch to ready) x
 * processes / CPUs must fit in what is left. The start is the fastest this agent process has
 * measured (each fleet measures its first worker): the first one after a node's boot is cold (a
 * recovered emulated guest measured 101.9 s; warm ones load in 12.5-20.2 s) and would refuse every
 * later prepare that could have made it; a guard that refuses must not guess high.
 */
final class WorkerStartGuard {
  /** The fastest worker start measured in this agent process, ns; 0 until then. */
  private static volatile long measuredStartNanos;

  private WorkerStartGuard() {}

  static long measured() {
    return measuredStartNanos;
  }

  static synchronized void record(long startNanos) {
    if (startNanos > 0 && (measuredStartNanos == 0 || startNanos < measuredStartNanos)) {
      measuredStartNanos = startNanos;
    }
  }

  /** Checks against the Prepare call's {@code deadline} (none: nothing to check). */
  static void check(int processes, String field, CallDeadline deadline) {
    if (deadline.isNone() || measuredStartNanos == 0) {
      return;
    }
    check(
        processes,
        field,
        measuredStartNanos,
        deadline.remainingNanos(),
        Runtime.getRuntime().availableProcessors());
  }

  static void check(int processes, String field, long startNanos, long leftNanos, int cpus) {
    long need = startNanos * processes / Math.max(1, cpus);
    if (need > leftNanos) {
      throw new ResourceLimitException(
          String.format(
              "%s: %d worker processes x %.2f s to start one (measured on this agent) / %d CPUs ="
                  + " %.0f s, more than the %.0f s left of the prepare call's deadline; lower %s"
                  + " (the coordinator gives prepare 3 min)",
              field, processes, startNanos / 1e9, cpus, need / 1e9, leftNanos / 1e9, field));
    }
  }
}

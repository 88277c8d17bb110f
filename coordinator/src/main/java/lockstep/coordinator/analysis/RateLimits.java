package lockstep.coordinator.analysis;

import java.util.List;
import java.util.Optional;
import lockstep.agent.v1.LockKind;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;

/**
 * The POSIX-lock rate limit a cluster's nodes report in their environment: dlm_controld's
 * plock_rate_limit (GFS2 with corosync and dlm; "dlm_tool dump_config"), or gfs_controld's of the
 * older cman stack (cluster.conf). 0 is no limit.
 *
 * @param setting the setting as the environment names it
 * @param value fcntl lock operations per second per node (lock and unlock each count); 0 = none
 */
record RateLimits(String setting, long value) {
  /** The settings that are such a limit, newest stack first. */
  static final List<String> SETTINGS =
      List.of("dlm_controld:plock_rate_limit", "cluster.conf:gfs_controld.plock_rate_limit");

  /**
   * Whether the run's locks pass through such a limit: record locks (fcntl, OFD), which GFS2 and
   * OCFS2 on the user-space stack hand to dlm_controld. flock never does (the kernel's DLM locks it
   * directly), nor do locks that stay on their node (OCFS2 with o2cb, NFS's local_lock or nolock).
   */
  static boolean applies(RunRecord run) {
    return run.takesLocks()
        && run.lockKind() != LockKind.LOCK_KIND_FLOCK
        && FileSystems.nodeLocalLocks(run).isEmpty();
  }

  /** The limit the nodes report, if the run's locks pass through it ({@link #applies}). */
  static Optional<RateLimits> of(RunRecord run) {
    if (!applies(run)) {
      return Optional.empty();
    }
    for (String s : SETTINGS) {
      for (AgentRecord a : run.agents()) {
        String v = a.clusterSettings() == null ? null : a.clusterSettings().get(s);
        if (v != null) {
          try {
            return Optional.of(new RateLimits(s, Long.parseLong(v.trim())));
          } catch (NumberFormatException e) {
            // not a number: not a limit this verdict can weigh
          }
        }
      }
    }
    return Optional.empty();
  }

  /** "whose plock_rate_limit is 100 (dlm_controld)" when a limit is on, else null. */
  static String describe(RunRecord run) {
    return of(run).filter(r -> r.value() > 0).map(r -> "whose " + r.words()).orElse(null);
  }

  /** "plock_rate_limit is 100 (dlm_controld)". */
  String words() {
    int colon = setting.indexOf(':');
    String source = setting.substring(0, colon);
    String name = setting.substring(colon + 1);
    if (name.startsWith("gfs_controld.")) {
      source = "gfs_controld";
      name = name.substring("gfs_controld.".length());
    }
    return name + " is " + value + " (" + source + ")";
  }
}

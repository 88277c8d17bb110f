package lockstep.coordinator.run;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.AgentRecord;

/**
 * The pause before a step in which a node locks alone right after a step in which several nodes
 * locked one file, where dlm_controld keeps plock ownership ({@code plock_ownership=1}, GFS2's old
 * default). Such a file's lock resource is left unowned, so each of its locks goes through corosync
 * to every node, until it has been idle for {@code drop_resources_age} and a pass every {@code
 * drop_resources_time} has dropped it (the next step's file may be the same inode: created after
 * the last one was removed). A node alone in that window measures corosync's round trip, not its
 * own rate: 96-121 locks/s on the lab's GFS2, 3,865-4,617 on the same file 25 s later.
 */
final class LockResourceSettle {
  static final String OWNERSHIP = "dlm_controld:plock_ownership";
  static final String AGE = "dlm_controld:drop_resources_age";
  static final String INTERVAL = "dlm_controld:drop_resources_time";
  // dlm_controld's defaults, for a node that does not say
  private static final long DEFAULT_MILLIS = 10_000;

  private LockResourceSettle() {}

  /**
   * How long to wait before a step on {@code next} that follows one on {@code previous} (empty:
   * none), with the settings the nodes' agents reported.
   */
  static long millis(
      WorkloadKind<?> kind,
      WorkloadSpec spec,
      List<StepNode> previous,
      List<StepNode> next,
      List<AgentRecord> agents) {
    if (previous.size() < 2
        || next.size() != 1
        || !kind.takesLocks()
        || !kind.sharedFile()
        || kind.lockKind(spec) == LockKind.LOCK_KIND_FLOCK) {
      return 0;
    }
    Set<String> nodes = next.stream().map(StepNode::node).collect(Collectors.toSet());
    long wait = 0;
    for (AgentRecord a : agents) {
      Map<String, String> s = a.clusterSettings();
      if (nodes.contains(a.node()) && "1".equals(s.get(OWNERSHIP))) {
        wait = Math.max(wait, number(s.get(AGE)) + number(s.get(INTERVAL)));
      }
    }
    return wait;
  }

  private static long number(String value) {
    return Optional.ofNullable(value)
        .filter(v -> v.matches("\\d{1,9}"))
        .map(Long::parseLong)
        .orElse(DEFAULT_MILLIS);
  }

  /** What the console says while it waits. */
  static String reason(long millis) {
    return String.format(
        Locale.ROOT,
        "waiting %.0f s: dlm_controld (plock_ownership=1) leaves the file the nodes locked"
            + " together unowned, each lock a message to every node, until it has been idle for"
            + " drop_resources_age and dropped",
        millis / 1000.0);
  }
}

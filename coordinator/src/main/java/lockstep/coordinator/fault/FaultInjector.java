package lockstep.coordinator.fault;

import lockstep.coordinator.model.Fault;

/**
 * Who carries out a scenario's faults: the lab (the victim's QEMU process, its QMP socket), never
 * the victim's agent. Each call returns once the fault is in effect, or throws {@link
 * FaultException} saying why it is not.
 */
public interface FaultInjector {
  /** Null when {@code node} is one this injector can act on, else why not (one line). */
  String refuses(String node);

  /** Puts the fault in effect on its node: the guest killed, paused, or its cluster link down. */
  void begin(Fault fault);

  /**
   * Ends a freeze or a partition: the guest continued, its link up again, or, when the cluster
   * wrote the node off meanwhile, the node fenced instead (a written-off node that comes back with
   * its old state is what fencing prevents); returns how it ended, in words.
   */
  String end(Fault fault);

  /**
   * After the step: the victim a healthy cluster member again (restarted, rejoined, remounted, its
   * agents answering), so the next step starts from a whole cluster; returns what was done.
   */
  String recover(String node);

  /** For runs that have no lab (tests, benchmarks): every fault refused. */
  FaultInjector NONE = none("no lab carries out faults here");

  /** For agents that are not in a lab: every node refused with {@code why}. */
  static FaultInjector none(String why) {
    return new FaultInjector() {
      @Override
      public String refuses(String node) {
        return why;
      }

      @Override
      public void begin(Fault fault) {
        throw new FaultException(why);
      }

      @Override
      public String end(Fault fault) {
        throw new FaultException(why);
      }

      @Override
      public String recover(String node) {
        throw new FaultException(why);
      }
    };
  }
}

package lockstep.common;

import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadSpec;

/**
 * Checks a workload spec before anything is created: the coordinator checks a scenario with it
 * (naming the YAML field) before any agent is asked, and each agent checks every Prepare with it (a
 * client other than Lockstep's CLI may send anything). The rules of each type are its {@link
 * WorkloadKind}'s; fields are named as in a scenario ({@code block-size}, {@code processes}). What
 * depends on the node (its root, limits, free space) is checked by the agent at prepare.
 */
public final class WorkloadValidator {
  /** O_DIRECT's block-size and buffer alignment. */
  public static final int DIRECT_ALIGNMENT = 4096;

  private WorkloadValidator() {}

  /** Throws {@link InvalidWorkloadException} naming the first field that breaks a rule. */
  public static void validate(WorkloadSpec spec) {
    WorkloadKind<?> kind = WorkloadKind.of(spec);
    kind.check(spec);
    if (spec.getInstrumentationOff()
        && kind.execution() != WorkloadKind.Execution.WORKER_PROCESSES) {
      throw new InvalidWorkloadException(
          "instrumentation",
          "can be turned off for the lock workloads ("
              + String.join(", ", WorkloadKind.workerProcessNames())
              + ") only, not for "
              + kind.name());
    }
  }

  /**
   * The ping-pong ring when {@code participants} processes take part (nodes x processes): slots 0
   * means participants + 1; fewer than that deadlocks. Returns the slots to use.
   */
  public static int ringSlots(PingPongWorkload spec, int nodes) {
    int participants = Math.max(1, nodes) * spec.getProcesses();
    int slots = spec.getSlots() == 0 ? participants + 1 : spec.getSlots();
    if (slots < participants + 1) {
      throw new InvalidWorkloadException(
          "slots",
          slots
              + " slots for "
              + participants
              + " participants ("
              + Math.max(1, nodes)
              + " node(s) x "
              + spec.getProcesses()
              + " process(es)); the ring needs at least "
              + (participants + 1)
              + " or it deadlocks");
    }
    return slots;
  }
}

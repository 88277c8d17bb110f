package lockstep.agent.telemetry;

import lockstep.agent.v1.WorkloadSpec;

/** How many workers (threads, or processes x threads) do a workload's measured ops at once. */
public final class WorkerCount {
  private WorkerCount() {}

  public static int of(WorkloadSpec spec) {
    return switch (spec.getKindCase()) {
      case WRITE -> Math.max(1, spec.getWrite().getThreads());
      case READ -> Math.max(1, spec.getRead().getThreads());
      case LOCK_FILES -> Math.max(1, spec.getLockFiles().getProcesses());
      case PING_PONG -> Math.max(1, spec.getPingPong().getProcesses());
      case HOT_LOCK ->
          Math.max(1, spec.getHotLock().getProcesses())
              * Math.max(1, spec.getHotLock().getThreads());
      case METADATA -> Math.max(1, spec.getMetadata().getThreads());
      case KIND_NOT_SET -> 0;
    };
  }
}

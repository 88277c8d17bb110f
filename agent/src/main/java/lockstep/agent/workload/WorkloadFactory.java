package lockstep.agent.workload;

import lockstep.agent.fs.RootedPaths;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.InvalidWorkloadException;
import lockstep.common.WorkloadValidator;

/**
 * The agent's table of workload classes: builds the workload a spec asks for, after the spec's
 * {@link lockstep.common.WorkloadKind} rules; throws {@link InvalidWorkloadException} naming the
 * field. A new workload type adds its class here (the compiler asks for it: the switch covers every
 * kind of spec).
 */
public final class WorkloadFactory {
  private WorkloadFactory() {}

  /**
   * @param stepNodes how many nodes run this step together (ping-pong sizes its ring by it)
   * @param readyBy when the Prepare call that creates it must be answered: worker processes that
   *     could not all be ready by then are refused
   */
  public static Workload create(
      WorkloadSpec spec, RootedPaths paths, int stepNodes, CallDeadline readyBy) {
    WorkloadValidator.validate(spec);
    Workload workload =
        switch (spec.getKindCase()) {
          case WRITE -> new WriteFileWorkload(spec.getWrite(), paths);
          case READ -> new ReadFileWorkload(spec.getRead(), paths);
          case LOCK_FILES -> new LockFilesProcesses(spec.getLockFiles(), paths);
          case PING_PONG -> new PingPongProcesses(spec.getPingPong(), paths, stepNodes);
          case HOT_LOCK -> new HotLockProcesses(spec.getHotLock(), paths);
          case METADATA -> new MetadataOpsWorkload(spec.getMetadata(), paths);
          case KIND_NOT_SET -> throw new InvalidWorkloadException("type", "no workload given");
        };
    if (workload instanceof FleetWorkload fleetWorkload) {
      fleetWorkload.fleet.readyBy(readyBy);
      if (spec.getInstrumentationOff()) {
        fleetWorkload.fleet.turnInstrumentationOff();
      }
    }
    return workload;
  }
}

package lockstep.agent.workload;

import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.PingPongLoop;
import lockstep.common.WorkloadKind;
import lockstep.common.WorkloadValidator;
import lockstep.worker.v1.WorkerTask;

/**
 * ctdb's ping_pong on one node: {@code processes} worker processes, each one participant of the
 * ring ({@link PingPongLoop}) on the file every node shares. The ring has {@code slots} one-byte
 * locks, at least one more than the participants on all nodes of the step (else the ring
 * deadlocks); 0 means exactly participants + 1, as ctdb advises.
 */
public final class PingPongProcesses extends SharedFileFleet {
  private final PingPongWorkload spec;
  private final int participants;
  private final int slots;

  /**
   * @param stepNodes how many nodes run the step together (1 if unknown)
   */
  public PingPongProcesses(PingPongWorkload spec, RootedPaths paths, int stepNodes) {
    super(paths, spec.getFile());
    this.spec = spec;
    int nodes = Math.max(1, stepNodes);
    this.participants = nodes * spec.getProcesses();
    this.slots = WorkloadValidator.ringSlots(spec, nodes);
  }

  int slots() {
    return slots;
  }

  int participants() {
    return participants;
  }

  @Override
  protected int processes() {
    return spec.getProcesses();
  }

  @Override
  protected WorkerTask task(WorkerTask.Builder base) {
    return base.setSlots(slots)
        .setParticipants(participants)
        .setWorkload(WorkloadKind.PING_PONG.spec(spec))
        .build();
  }

  @Override
  public WorkloadResult.Builder run(long startAtUnixNanos) {
    return fleet
        .run(startAtUnixNanos, opName())
        .setMeasureDelayNanos(spec.getWarmupMillis() * 1_000_000L);
  }
}

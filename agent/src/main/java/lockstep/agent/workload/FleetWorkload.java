package lockstep.agent.workload;

import java.util.List;
import lockstep.agent.process.ProcessFleet;
import lockstep.agent.v1.WorkloadResult;

/**
 * A workload done by worker processes ({@link ProcessFleet}): subclasses set the fleet up at
 * prepare and say what to remove at cleanup; progress, the run and abort are the fleet's.
 */
abstract class FleetWorkload implements Workload {
  protected final ProcessFleet fleet = new ProcessFleet();

  @Override
  public List<Long> workerPids() {
    return fleet.pids();
  }

  @Override
  public long opsSoFar() {
    return fleet.ops();
  }

  @Override
  public WorkloadResult.Builder run(long startAtUnixNanos) {
    return fleet.run(startAtUnixNanos, opName());
  }

  @Override
  public void abort() {
    fleet.abort();
  }
}

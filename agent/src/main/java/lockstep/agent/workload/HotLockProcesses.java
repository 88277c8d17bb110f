package lockstep.agent.workload;

import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerTask;

/**
 * hot-lock on one node: {@code processes} worker processes x {@code threads} threads, every one
 * taking the same whole-file lock on the one file all nodes share, for {@code duration}. fcntl
 * locks belong to the process, so threads of one process would not contend: with fcntl only one
 * thread per process is allowed.
 */
public final class HotLockProcesses extends SharedFileFleet {
  private final HotLockWorkload spec;

  public HotLockProcesses(HotLockWorkload spec, RootedPaths paths) {
    super(paths, spec.getFile());
    this.spec = spec;
  }

  @Override
  protected int processes() {
    return spec.getProcesses();
  }

  @Override
  protected WorkerTask task(WorkerTask.Builder base) {
    return base.setWorkload(WorkloadKind.HOT_LOCK.spec(spec)).build();
  }
}

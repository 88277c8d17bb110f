package lockstep.agent.workload;

import lockstep.agent.fs.InvalidWorkloadException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.WorkloadSpec;

/** Builds the workload a spec asks for; throws {@link InvalidWorkloadException} naming the field. */
public final class WorkloadFactory {
    private WorkloadFactory() {
    }

    public static Workload create(WorkloadSpec spec, RootedPaths paths) {
        return switch (spec.getKindCase()) {
            case WRITE -> new WriteFileWorkload(spec.getWrite(), paths);
            case LOCK_FILES -> new LockFilesProcesses(spec.getLockFiles(), paths);
            case KIND_NOT_SET -> throw new InvalidWorkloadException("type", "no workload given");
        };
    }
}

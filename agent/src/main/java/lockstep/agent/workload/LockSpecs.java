package lockstep.agent.workload;

import lockstep.agent.fs.InvalidWorkloadException;
import lockstep.agent.v1.LockKind;

/** Checks shared by the lock workloads. */
final class LockSpecs {
    private LockSpecs() {
    }

    static void validateKind(LockKind kind, boolean flockAllowed) {
        if (kind == LockKind.LOCK_KIND_UNSPECIFIED || kind == LockKind.UNRECOGNIZED) {
            throw new InvalidWorkloadException("lock", flockAllowed ? "must be one of fcntl, flock, ofd" : "must be fcntl or ofd");
        }
        if (!flockAllowed && kind == LockKind.LOCK_KIND_FLOCK) {
            throw new InvalidWorkloadException("lock", "flock locks whole files only; this workload locks byte ranges (use fcntl or ofd)");
        }
    }

    /** A template without {node}: the one file all nodes share. */
    static void requireShared(String field, String template) {
        if (template.contains("{node}")) {
            throw new InvalidWorkloadException(field, "'" + template
                    + "' contains {node}, but every node must use the same file (the roots point at one shared directory)");
        }
    }
}

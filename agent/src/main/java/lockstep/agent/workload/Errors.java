package lockstep.agent.workload;

import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.WorkloadError;

/** Turns failures into the WorkloadError message the coordinator reports. */
final class Errors {
    private Errors() {
    }

    static WorkloadError of(PosixException e, RootedPaths paths) {
        String path = e.path();
        try {
            path = paths.relative(java.nio.file.Path.of(e.path()));
        } catch (IllegalArgumentException ignored) {
            // not under the root: keep as is
        }
        return WorkloadError.newBuilder()
                .setOperation(e.operation())
                .setPath(path)
                .setErrno(e.errno())
                .setErrnoName(e.errnoName())
                .setMessage(e.operation() + " " + path + ": " + e.getMessage().substring(e.getMessage().indexOf(": ") + 2))
                .build();
    }

    static WorkloadError of(String operation, String message) {
        return WorkloadError.newBuilder().setOperation(operation).setMessage(message).build();
    }
}

package lockstep.agent.worker;

import java.nio.file.Path;
import lockstep.agent.fs.PosixException;
import lockstep.agent.v1.WorkloadError;

/** A failed call in a worker, as the WorkloadError the agent passes on: path relative to the root. */
final class WorkerErrors {
    private WorkerErrors() {
    }

    static WorkloadError of(PosixException e, Path root, String context) {
        String rel = e.path();
        try {
            Path p = Path.of(e.path());
            if (p.startsWith(root)) {
                rel = root.relativize(p).toString();
            }
        } catch (RuntimeException ignored) {
            // keep the path as given
        }
        String detail = e.getMessage().substring(e.getMessage().indexOf(": ") + 2);
        return WorkloadError.newBuilder()
                .setOperation(e.operation())
                .setPath(rel)
                .setErrno(e.errno())
                .setErrnoName(e.errnoName())
                .setMessage(e.operation() + " " + rel + (context.isEmpty() ? "" : " " + context) + ": " + detail)
                .build();
    }
}

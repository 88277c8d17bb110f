package lockstep.agent.fs;

import java.nio.file.Path;
import lockstep.agent.v1.WorkloadError;

/**
 * Turns failures, in the agent or in a worker process, into the WorkloadError the coordinator
 * reports.
 */
public final class WorkloadErrors {
  private WorkloadErrors() {}

  /**
   * The failed call with its path relative to the root (as given if outside it), errno, and a
   * message "CALL PATH[ CONTEXT]: DETAIL", e.g. "open d/f failed after 40 files: EISDIR (...)".
   */
  public static WorkloadError of(PosixException e, Path root, String context) {
    String rel = e.path();
    try {
      Path p = Path.of(e.path());
      if (p.startsWith(root)) {
        rel = root.relativize(p).toString();
      }
    } catch (RuntimeException ignored) {
      // not a path: keep it as given
    }
    return WorkloadError.newBuilder()
        .setOperation(e.operation())
        .setPath(rel)
        .setErrno(e.errno())
        .setErrnoName(e.errnoName())
        .setDetail(e.detail())
        .setContext(context)
        .setMessage(
            e.operation()
                + " "
                + rel
                + (context.isEmpty() ? "" : " " + context)
                + ": "
                + e.detail())
        .build();
  }

  /**
   * The inverse of {@link #of(PosixException, Path, String)}, for a worker's error met in the
   * agent.
   */
  public static PosixException asException(WorkloadError err, String where) {
    String detail = err.getDetail().isEmpty() ? err.getMessage() : err.getDetail();
    return PosixException.withDetail(
        err.getOperation(),
        err.getPath().isEmpty() ? where : err.getPath(),
        err.getErrno(),
        err.getErrnoName(),
        detail);
  }

  public static WorkloadError of(PosixException e, RootedPaths paths) {
    return of(e, paths.root(), "");
  }

  public static WorkloadError of(String operation, String message) {
    return WorkloadError.newBuilder().setOperation(operation).setMessage(message).build();
  }
}

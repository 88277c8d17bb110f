package lockstep.agent.fs;

import jnr.constants.platform.Errno;

/** A failed system call: which call, on which path, and errno with its name. */
public final class PosixException extends RuntimeException {
  private final String operation;
  private final String path;
  private final int errno;
  private final String errnoName;
  private final String detail;

  public PosixException(
      String operation, String path, int errno, String errnoName, String description) {
    this(detail(errnoName, description), operation, path, errno, errnoName);
  }

  private PosixException(
      String detail, String operation, String path, int errno, String errnoName) {
    super(operation + " " + path + ": " + detail);
    this.operation = operation;
    this.path = path;
    this.errno = errno;
    this.errnoName = errnoName;
    this.detail = detail;
  }

  /** A failure already described elsewhere (a worker process): {@code detail} is used as it is. */
  public static PosixException withDetail(
      String operation, String path, int errno, String errnoName, String detail) {
    return new PosixException(detail, operation, path, errno, errnoName);
  }

  /**
   * This failure on {@code path}: for callers that name the file only once a call failed (the
   * measured per-file path makes no String per file).
   */
  public PosixException on(String path) {
    PosixException e = new PosixException(detail, operation, path, errno, errnoName);
    e.setStackTrace(getStackTrace());
    return e;
  }

  /** This failure with {@code why} after its detail: "EXDEV (...): the path leaves the root". */
  public PosixException explained(String why) {
    return new PosixException(detail + ": " + why, operation, path, errno, errnoName);
  }

  /** This failure with {@code description} in place of the system's words for its errno. */
  public PosixException describedAs(String description) {
    return new PosixException(operation, path, errno, errnoName, description);
  }

  private static String detail(String errnoName, String description) {
    if (errnoName.isEmpty()) {
      return description;
    }
    return description.isEmpty() ? errnoName : errnoName + " (" + description + ")";
  }

  /** What went wrong, without the call and path: "EMFILE (Too many open files)". */
  public String detail() {
    return detail;
  }

  public String operation() {
    return operation;
  }

  public String path() {
    return path;
  }

  public int errno() {
    return errno;
  }

  public String errnoName() {
    return errnoName;
  }

  /** Whether the call failed with {@code e}. */
  public boolean is(Errno e) {
    return errno == e.intValue();
  }
}

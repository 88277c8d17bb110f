package lockstep.agent.fs;

import lockstep.agent.v1.LockKind;

/** Which kernel lock call a workload uses. */
public enum LockCall {
  /** POSIX record lock, fcntl(F_SETLKW): owned by the process, so threads share it. */
  FCNTL,
  /** BSD flock(2): owned by the open file description. */
  FLOCK,
  /** Open-file-description record lock, fcntl(F_OFD_SETLKW). */
  OFD;

  /** From the wire enum; unspecified means fcntl. */
  public static LockCall of(LockKind kind) {
    return switch (kind) {
      case LOCK_KIND_FLOCK -> FLOCK;
      case LOCK_KIND_OFD -> OFD;
      default -> FCNTL;
    };
  }
}

package lockstep.agent.fs;

import lockstep.agent.v1.LockKind;

/** A lock kind together with shared/exclusive and blocking/try-lock. */
public record LockMode(LockCall kind, boolean exclusive, boolean blocking) {
  /** From the wire form: kind, shared or not, try-lock or not. */
  public static LockMode of(LockKind kind, boolean shared, boolean tryLock) {
    return new LockMode(LockCall.of(kind), !shared, !tryLock);
  }
}

package lockstep.agent.fs;

/** A lock kind together with shared/exclusive and blocking/try-lock. */
public record LockMode(LockKind kind, boolean exclusive, boolean blocking) {
    public static LockMode exclusiveBlocking(LockKind kind) {
        return new LockMode(kind, true, true);
    }

    /** From the wire form: kind, shared or not, try-lock or not. */
    public static LockMode of(lockstep.agent.v1.LockKind kind, boolean shared, boolean tryLock) {
        return new LockMode(LockKind.of(kind), !shared, !tryLock);
    }
}

package lockstep.agent.fs;

/** A lock kind together with shared/exclusive and blocking/try-lock. */
public record LockMode(LockKind kind, boolean exclusive, boolean blocking) {
    public static LockMode exclusiveBlocking(LockKind kind) {
        return new LockMode(kind, true, true);
    }
}

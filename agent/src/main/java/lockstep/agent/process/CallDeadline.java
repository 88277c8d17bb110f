package lockstep.agent.process;

/**
 * When the call that asked for some work must have its answer, on {@link System#nanoTime}'s clock,
 * or {@link #NONE}: the agent's own form of a call's deadline (the service reads it off gRPC).
 */
public record CallDeadline(long atNanoTime) {
  /** A call without a deadline (or work no call waits for). */
  public static final CallDeadline NONE = new CallDeadline(Long.MAX_VALUE);

  /** A deadline {@code nanos} from now. */
  public static CallDeadline in(long nanos) {
    return new CallDeadline(System.nanoTime() + nanos);
  }

  public boolean isNone() {
    return atNanoTime == Long.MAX_VALUE;
  }

  /** Nanoseconds left until the deadline (negative once it passed). */
  public long remainingNanos() {
    return atNanoTime - System.nanoTime();
  }
}

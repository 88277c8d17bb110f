package lockstep.coordinator.agent;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import lockstep.common.DaemonThreads;

/**
 * What agent calls run in: a deadline and a cancellation. A call made inside {@link #run} carries
 * the scope's deadline on the wire, and cancelling the scope ends every call made in it, the
 * agent's side included (the agent's handler sees its call cancelled). Scopes nest: a child ends
 * with its parent, at its own deadline if that comes first, or when it is cancelled itself.
 *
 * <p>gRPC's {@code Context} behind a plain type: the run layer bounds and cancels its calls with
 * this and never sees gRPC.
 */
public final class CallScope {
  /** One timer for every scope's deadline (a deadline cancelled early is removed at once). */
  private static final ScheduledThreadPoolExecutor DEADLINES = deadlines();

  private final Context.CancellableContext context;

  private CallScope(Context.CancellableContext context) {
    this.context = context;
  }

  private static ScheduledThreadPoolExecutor deadlines() {
    ScheduledThreadPoolExecutor s =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("call-deadlines"));
    s.setRemoveOnCancelPolicy(true);
    return s;
  }

  /** A scope of its own, without a deadline. */
  public static CallScope open() {
    return new CallScope(Context.ROOT.withCancellation());
  }

  /** A scope that ends with this one or when cancelled itself. */
  public CallScope child() {
    return new CallScope(context.withCancellation());
  }

  /**
   * A scope that ends with this one, when cancelled itself, or at {@code deadlineNanos} ({@link
   * System#nanoTime}), whichever comes first.
   */
  public CallScope child(long deadlineNanos) {
    return new CallScope(
        context.withDeadline(
            Deadline.after(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS), DEADLINES));
  }

  /** A child ending {@code budget} from now at the latest. */
  public CallScope within(Duration budget) {
    return child(System.nanoTime() + budget.toNanos());
  }

  /** {@code call} with this scope's deadline and cancellation on every agent call it makes. */
  public <T> T run(Supplier<T> call) {
    Context previous = context.attach();
    try {
      return call.get();
    } finally {
      context.detach(previous);
    }
  }

  /**
   * Ends the scope and every call in it (and its children's): each fails with {@code reason}, as
   * {@link AgentCallException#cancelled()}.
   */
  public void cancel(String reason) {
    context.cancel(Status.CANCELLED.withDescription(reason).asRuntimeException());
  }

  /**
   * Ends the scope as its deadline would (a phase that gives up): each call in it fails as {@link
   * AgentCallException#timedOut()}, with {@code reason}.
   */
  public void expire(String reason) {
    context.cancel(Status.DEADLINE_EXCEEDED.withDescription(reason).asRuntimeException());
  }

  /** Ends the scope when its calls are done (frees its deadline's timer); no call is in it now. */
  public void close() {
    context.cancel(null);
  }

  public boolean isCancelled() {
    return context.isCancelled();
  }

  /** Nanoseconds left before the deadline; {@link Long#MAX_VALUE} without one. */
  public long remainingNanos() {
    Deadline d = context.getDeadline();
    return d == null ? Long.MAX_VALUE : d.timeRemaining(TimeUnit.NANOSECONDS);
  }
}

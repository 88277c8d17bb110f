package lockstep.agent.worker;

import java.util.OptionalLong;

/**
 * When the parts of a run (its threads, its worker processes) started, made their first operation
 * and ended, folded into the run's: the earliest start, the earliest first operation, and the
 * latest end of a part that made one. A part's 0 is "it did not".
 */
public final class RunSpan {
  private long started = Long.MAX_VALUE;
  private long first = Long.MAX_VALUE;
  private long end = Long.MIN_VALUE;

  public void add(long startedUnixNanos, long firstOpUnixNanos, long endUnixNanos) {
    if (startedUnixNanos > 0) {
      started = Math.min(started, startedUnixNanos);
    }
    if (firstOpUnixNanos > 0) {
      first = Math.min(first, firstOpUnixNanos);
      end = Math.max(end, endUnixNanos);
    }
  }

  /** The earliest start, when a part started. */
  public OptionalLong started() {
    return started == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(started);
  }

  /** The earliest first operation, when a part made one. */
  public OptionalLong firstOp() {
    return first == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(first);
  }

  /** The latest end of a part that made a first operation. */
  public long end() {
    return end;
  }
}

package lockstep.agent.telemetry;

/** The CPU cost of the last few samples, for pacing the next: their mean. */
final class RecentCosts {
  private final long[] costs;
  private int count;
  private int next;

  RecentCosts(int size) {
    this.costs = new long[size];
  }

  synchronized void add(long nanos) {
    costs[next] = nanos;
    next = (next + 1) % costs.length;
    count = Math.min(count + 1, costs.length);
  }

  /** The mean of the last costs added, or {@code Long.MAX_VALUE} before the first. */
  synchronized long mean() {
    if (count == 0) {
      return Long.MAX_VALUE;
    }
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += costs[i];
    }
    return sum / count;
  }
}

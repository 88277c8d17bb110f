package lockstep.agent.run;

import java.util.ArrayList;
import java.util.List;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.workload.Workload;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;

/**
 * A run's progress over time: one sample of its workload's counts every {@value Run#SAMPLE_MILLIS}
 * ms while it runs, ended where its work ended. Guarded by its run's lock.
 */
final class ProgressSeries {
  private final Workload workload;
  private final List<ProgressSample> samples = new ArrayList<>();

  ProgressSeries(Workload workload) {
    this.workload = workload;
  }

  void sample() {
    samples.add(at(WallClock.nowNanos()));
  }

  /** The workload's counts so far, stamped {@code atUnixNanos}. */
  ProgressSample at(long atUnixNanos) {
    return ProgressSample.newBuilder()
        .setAtUnixNanos(atUnixNanos)
        .setOps(workload.opsSoFar())
        .setBytes(workload.bytesSoFar())
        .build();
  }

  /**
   * The series of a run that started at {@code startAt} and ended with {@code r}, ended where the
   * work ended (see {@link #seriesEnd}) with the final counts. A count read exactly (a worker's
   * mapped page) stands still between the last op and the run's result, and samples from that gap
   * would read as a stall at the end of every run.
   *
   * @param running whether the run got past its instant (else it takes no last sample)
   */
  List<ProgressSample> close(
      WorkloadResult.Builder r, WorkloadSpec spec, long startAt, boolean running) {
    long timed = WorkloadKind.of(spec).timedMillis(spec) * 1_000_000L;
    // a timed workload's warm-up after its window mirrors the one before it (ping-pong's)
    long windowEnd = timed > 0 ? startAt + timed - r.getMeasureDelayNanos() : 0;
    long cut = seriesEnd(r.getEndUnixNanos(), windowEnd, WallClock.nowNanos());
    if (cut <= startAt) {
      if (running) {
        sample();
      }
    } else {
      samples.removeIf(p -> p.getAtUnixNanos() >= cut);
      samples.add(at(cut));
    }
    return samples;
  }

  /**
   * Where a run's series ends: at its last op, or at the end of its timed window if the work stood
   * still before it (a survivor stalled until its run ended), never later than now (an aborted
   * run); now where the run has no last op.
   */
  static long seriesEnd(long lastOpEnd, long windowEnd, long now) {
    if (lastOpEnd <= 0) {
      return now;
    }
    return Math.min(Math.max(lastOpEnd, windowEnd), now);
  }
}

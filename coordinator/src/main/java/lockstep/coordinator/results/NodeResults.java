package lockstep.coordinator.results;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import lockstep.agent.v1.OperationResult;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.ErrorRecord;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OperationFigures;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Sample;

/** Turns an agent's raw result into a node's figures on the coordinator's time base. */
public final class NodeResults {
  private NodeResults() {}

  /** Throughput in the run's unit: MB/s (10^6 bytes) when bytes moved, else ops/s. */
  public static double throughput(boolean bytesUnit, long ops, long bytes, double seconds) {
    if (seconds <= 0) {
      return 0;
    }
    return bytesUnit ? bytes / 1e6 / seconds : ops / seconds;
  }

  public static NodeResult of(
      String node,
      WorkloadResult r,
      ClockOffset clock,
      long intendedStartCoordinatorNanos,
      WorkloadKind<?> kind,
      long filesRemoved) {
    boolean bytesUnit = kind.countsBytes();
    boolean started = r.getFirstOpUnixNanos() > 0;
    long first = started ? clock.toCoordinatorClock(r.getFirstOpUnixNanos()) : 0;
    long end = started ? clock.toCoordinatorClock(r.getEndUnixNanos()) : 0;
    double seconds = started ? (r.getEndUnixNanos() - r.getFirstOpUnixNanos()) / 1e9 : 0;
    // The lateness of the node's first operation at the instant, counted or not (ping-pong's
    // warm-up ring); agents before started_unix_nanos tell the first counted op and the delay.
    double skewMillis =
        r.getStartedUnixNanos() > 0
            ? (clock.toCoordinatorClock(r.getStartedUnixNanos()) - intendedStartCoordinatorNanos)
                / 1e6
            : started
                ? (first - intendedStartCoordinatorNanos - r.getMeasureDelayNanos()) / 1e6
                : 0;
    Latency latency = Latency.of(LatencyHistograms.decode(r.getLatencyHistogram()));
    return new NodeResult(
        node,
        status(r.getState()),
        r.getOps(),
        r.getBytes(),
        seconds,
        throughput(bytesUnit, r.getOps(), r.getBytes(), seconds),
        skewMillis,
        clock.offsetNanos() / 1e6,
        clock.uncertaintyNanos() / 1e6,
        first,
        end,
        latency,
        Base64.getEncoder().encodeToString(r.getLatencyHistogram().toByteArray()),
        series(r.getSeriesList(), clock, intendedStartCoordinatorNanos, bytesUnit),
        r.hasError() ? error(r.getError()) : null,
        filesRemoved,
        r.getCoherenceErrors(),
        r.getCoherenceChecks(),
        r.getLockRetries(),
        null,
        operations(r.getOperationsList()),
        NodeTelemetry.of(
            r.getTelemetry(),
            clock,
            intendedStartCoordinatorNanos,
            latency,
            r.getWorkers(),
            seconds,
            kind.takesLocks()));
  }

  /**
   * A watch-only node's result: its status, clock and what its resources did from the start instant
   * to the end of the step's work; no operations, bytes, latency or lock figures.
   */
  public static NodeResult watched(
      String node, WorkloadResult r, ClockOffset clock, long intendedStartCoordinatorNanos) {
    boolean started = r.getStartedUnixNanos() > 0 && r.getEndUnixNanos() > r.getStartedUnixNanos();
    double seconds = started ? (r.getEndUnixNanos() - r.getStartedUnixNanos()) / 1e9 : 0;
    Latency none = Latency.of(LatencyHistograms.create());
    return new NodeResult(
        node,
        status(r.getState()),
        0,
        0,
        seconds,
        0,
        0,
        clock.offsetNanos() / 1e6,
        clock.uncertaintyNanos() / 1e6,
        0,
        started ? clock.toCoordinatorClock(r.getEndUnixNanos()) : 0,
        none,
        "",
        List.of(),
        r.hasError() ? error(r.getError()) : null,
        0,
        0,
        0,
        0,
        null,
        List.of(),
        NodeTelemetry.of(
            r.getTelemetry(), clock, intendedStartCoordinatorNanos, none, 0, seconds, false));
  }

  static List<OperationFigures> operations(List<OperationResult> raw) {
    List<OperationFigures> out = new ArrayList<>(raw.size());
    for (OperationResult o : raw) {
      double seconds =
          o.getEndUnixNanos() > o.getFirstOpUnixNanos()
              ? (o.getEndUnixNanos() - o.getFirstOpUnixNanos()) / 1e9
              : 0;
      out.add(
          new OperationFigures(
              o.getName(),
              o.getOps(),
              seconds,
              seconds > 0 ? o.getOps() / seconds : 0,
              Latency.of(LatencyHistograms.decode(o.getLatencyHistogram()))));
    }
    return out;
  }

  /** Each node's share of the step's operations (fairness); null when nothing was counted. */
  public static List<NodeResult> withShares(List<NodeResult> nodes) {
    long total = nodes.stream().mapToLong(NodeResult::ops).sum();
    return nodes.stream()
        .map(n -> n.withOpsShare(total > 0 ? (double) n.ops() / total : null))
        .toList();
  }

  static RunStatus status(RunState state) {
    return switch (state) {
      case RUN_STATE_SUCCEEDED -> RunStatus.OK;
      case RUN_STATE_ABORTED -> RunStatus.ABORTED;
      case RUN_STATE_FAILED -> RunStatus.FAILED;
      default -> RunStatus.INCOMPLETE;
    };
  }

  /**
   * Progress samples on the coordinator's clock: seconds since {@code origin}, cumulative counts,
   * the rate since the previous sample.
   */
  public static List<Sample> series(
      List<ProgressSample> raw, ClockOffset clock, long origin, boolean bytesUnit) {
    List<Sample> out = new ArrayList<>(raw.size());
    ProgressSample prev = null;
    for (ProgressSample s : raw) {
      double t = (clock.toCoordinatorClock(s.getAtUnixNanos()) - origin) / 1e9;
      double rate = 0;
      if (prev != null && s.getAtUnixNanos() > prev.getAtUnixNanos()) {
        double dt = (s.getAtUnixNanos() - prev.getAtUnixNanos()) / 1e9;
        rate =
            throughput(bytesUnit, s.getOps() - prev.getOps(), s.getBytes() - prev.getBytes(), dt);
      }
      out.add(new Sample(t, s.getOps(), s.getBytes(), rate));
      prev = s;
    }
    return out;
  }

  static ErrorRecord error(WorkloadError e) {
    return new ErrorRecord(
        e.getOperation(), e.getPath(), e.getErrno(), e.getErrnoName(), e.getMessage());
  }
}

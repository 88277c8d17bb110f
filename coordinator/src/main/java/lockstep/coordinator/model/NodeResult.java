package lockstep.coordinator.model;

import java.util.List;

/**
 * One node's figures in one step. Instants are on the coordinator's clock (agent clock minus the
 * estimated offset); {@code startSkewMillis} is the first operation's instant minus the intended
 * start, good to within {@code clockUncertaintyMillis}.
 *
 * @param throughput MB/s (10^6 bytes) for I/O workloads, locks/s for lock workloads
 * @param histogram HdrHistogram of operation latency (ns), compressed, base64
 * @param coherenceErrors ping-pong with io read-write: increments seen that were not the
 *     participant count (0 for other workloads)
 * @param coherenceChecks increments checked
 * @param lockRetries try-lock attempts that found the lock held
 * @param opsShare this node's share of all the step's operations (hot-lock fairness)
 * @param operations per-operation figures for workloads with several kinds of op (metadata)
 * @param resources what the node's CPU, block device, network and page cache did during the step
 *     (agent telemetry); null when the agent took no samples
 */
public record NodeResult(
    String node,
    RunStatus status,
    long ops,
    long bytes,
    double seconds,
    double throughput,
    double startSkewMillis,
    double clockOffsetMillis,
    double clockUncertaintyMillis,
    long firstOpUnixNanos,
    long endUnixNanos,
    Latency latency,
    String histogram,
    List<Sample> series,
    ErrorRecord error,
    long filesRemoved,
    long coherenceErrors,
    long coherenceChecks,
    long lockRetries,
    Double opsShare,
    List<OperationFigures> operations,
    NodeResources resources) {

  public NodeResult withOpsShare(Double share) {
    return new NodeResult(
        node,
        status,
        ops,
        bytes,
        seconds,
        throughput,
        startSkewMillis,
        clockOffsetMillis,
        clockUncertaintyMillis,
        firstOpUnixNanos,
        endUnixNanos,
        latency,
        histogram,
        series,
        error,
        filesRemoved,
        coherenceErrors,
        coherenceChecks,
        lockRetries,
        share,
        operations,
        resources);
  }

  public boolean ok() {
    return status == RunStatus.OK;
  }
}

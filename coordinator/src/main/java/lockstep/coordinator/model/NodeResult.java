package lockstep.coordinator.model;

import java.util.List;

/**
 * One node's figures in one step. Instants are on the coordinator's clock (agent clock minus
 * the estimated offset); {@code startSkewMillis} is the first operation's instant minus the
 * intended start, good to within {@code clockUncertaintyMillis}.
 *
 * @param throughput MB/s (10^6 bytes) for I/O workloads, locks/s for lock workloads
 * @param histogram HdrHistogram of operation latency (ns), compressed, base64
 */
public record NodeResult(
        String node,
        String status,
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
        long filesRemoved) {

    public boolean ok() {
        return "ok".equals(status);
    }
}

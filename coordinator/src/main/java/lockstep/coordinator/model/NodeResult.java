package lockstep.coordinator.model;

import java.util.List;

/**
 * One node's figures in one step. Instants are on the coordinator's clock (agent clock minus
 * the estimated offset); {@code startSkewMillis} is the first operation's instant minus the
 * intended start, good to within {@code clockUncertaintyMillis}.
 *
 * @param throughput MB/s (10^6 bytes) for I/O workloads, locks/s for lock workloads
 * @param histogram HdrHistogram of operation latency (ns), compressed, base64
 * @param coherenceErrors reads that saw data another node's write should have changed (or did
 *     not), as counted by coherence-checking workloads; 0 for workloads that do not check
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
        long filesRemoved,
        long coherenceErrors) {

    /** Without a coherence count (workloads that do not check coherence). */
    public NodeResult(String node, String status, long ops, long bytes, double seconds, double throughput,
                      double startSkewMillis, double clockOffsetMillis, double clockUncertaintyMillis,
                      long firstOpUnixNanos, long endUnixNanos, Latency latency, String histogram, List<Sample> series,
                      ErrorRecord error, long filesRemoved) {
        this(node, status, ops, bytes, seconds, throughput, startSkewMillis, clockOffsetMillis, clockUncertaintyMillis,
                firstOpUnixNanos, endUnixNanos, latency, histogram, series, error, filesRemoved, 0);
    }

    public boolean ok() {
        return "ok".equals(status);
    }
}

package lockstep.coordinator.report.csv;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One row of steps.csv: one node in one step record (one repeat). Units as in run.json. */
@JsonPropertyOrder({"runId", "step", "group", "kind", "repeat", "node", "status", "ops", "bytes", "seconds", "throughput",
        "unit", "overlapThroughput", "startSkewMillis", "clockUncertaintyMillis", "clockOffsetMillis", "firstOpUnixNanos",
        "endUnixNanos", "latencyCount", "p50Micros", "p90Micros", "p99Micros", "p999Micros", "maxMicros", "coherenceErrors",
        "error"})
public record NodeStepRow(String runId, String step, String group, String kind, int repeat, String node, String status,
                          long ops, long bytes, double seconds, double throughput, String unit, Double overlapThroughput,
                          double startSkewMillis, double clockOffsetMillis, double clockUncertaintyMillis,
                          long firstOpUnixNanos, long endUnixNanos, long latencyCount, double p50Micros, double p90Micros,
                          double p99Micros, double p999Micros, double maxMicros, long coherenceErrors, String error) {
}

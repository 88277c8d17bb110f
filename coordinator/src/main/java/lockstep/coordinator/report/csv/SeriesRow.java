package lockstep.coordinator.report.csv;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of series.csv: one progress sample of one node in one step record. {@code t} is seconds
 * since the step's intended start on the coordinator's clock; ops and bytes are cumulative; rate is
 * over the interval since the previous sample, in the run's unit.
 */
@JsonPropertyOrder({
  "runId", "step", "group", "repeat", "node", "t", "ops", "bytes", "rate", "unit"
})
public record SeriesRow(
    String runId,
    String step,
    String group,
    int repeat,
    String node,
    double t,
    long ops,
    long bytes,
    double rate,
    String unit) {}

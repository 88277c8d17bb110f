package lockstep.coordinator.report.csv;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One row of resources.csv: a node's resource figures in one step record, over one sampling
 * interval ({@code span} "interval", {@code t} its end), the whole run ("run", {@code t} the last
 * sample) or the idle baseline before the start ("baseline", {@code t} 0). Times are seconds since
 * the step's intended start on the coordinator's clock; MB are 10^6 bytes.
 */
@JsonPropertyOrder({
  "runId",
  "step",
  "group",
  "repeat",
  "node",
  "span",
  "t",
  "cpuBusyPercent",
  "iowaitPercent",
  "workloadCpuPercent",
  "device",
  "deviceBusyPercent",
  "deviceMBps",
  "netMBps",
  "dirtyBytes"
})
public record ResourceRow(
    String runId,
    String step,
    String group,
    int repeat,
    String node,
    String span,
    double t,
    double cpuBusyPercent,
    double iowaitPercent,
    double workloadCpuPercent,
    String device,
    double deviceBusyPercent,
    double deviceMBps,
    double netMBps,
    long dirtyBytes) {}

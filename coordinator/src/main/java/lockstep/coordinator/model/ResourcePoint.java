package lockstep.coordinator.model;

/**
 * One sampling interval of a node's resources, ending at {@code t} (seconds since the step's
 * intended start, coordinator clock). Device figures are of the busiest device, network the sum
 * over interfaces (busier direction each).
 */
public record ResourcePoint(
    double t,
    double cpuBusyPercent,
    double iowaitPercent,
    double workloadCpuPercent,
    double deviceBusyPercent,
    double deviceMBps,
    double netMBps,
    long dirtyBytes) {}

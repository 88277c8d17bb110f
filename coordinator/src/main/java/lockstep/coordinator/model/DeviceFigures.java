package lockstep.coordinator.model;

/**
 * One block device over an interval (/proc/diskstats). MB are 10^6 bytes.
 *
 * @param busyPercent time with I/O in flight (io_ticks) over the interval
 * @param queueDepth average requests in flight (weighted I/O time over the interval)
 * @param awaitMillis average time per completed request (read + write time over requests)
 */
public record DeviceFigures(
    String device,
    double readsPerSecond,
    double writesPerSecond,
    double readMBps,
    double writeMBps,
    double busyPercent,
    double queueDepth,
    double awaitMillis) {}

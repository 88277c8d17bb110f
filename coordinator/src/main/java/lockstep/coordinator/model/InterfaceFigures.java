package lockstep.coordinator.model;

/**
 * One network interface over an interval (/proc/net/dev). MB are 10^6 bytes.
 *
 * @param linkMbps link speed in Mb/s (/sys/class/net/IF/speed), null where unknown (loopback)
 * @param linkPercent the busier direction's bits per second over the link speed, null where unknown
 */
public record InterfaceFigures(
    String name,
    double rxMBps,
    double txMBps,
    double rxPacketsPerSecond,
    double txPacketsPerSecond,
    Long linkMbps,
    Double linkPercent) {

  /** The busier direction, MB/s (links are full duplex). */
  public double mbPerSecond() {
    return Math.max(rxMBps, txMBps);
  }
}

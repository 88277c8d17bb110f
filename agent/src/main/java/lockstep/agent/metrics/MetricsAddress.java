package lockstep.agent.metrics;

import lockstep.common.Loopback;

/**
 * Where {@code --metrics} serves: {@code PORT} alone is 127.0.0.1:PORT; {@code HOST:PORT} as given
 * ({@code [::1]:PORT} for IPv6). A host that is not loopback is refused unless {@code
 * --metrics-public} says so: the endpoint has no authentication and no TLS (anyone who reaches it
 * reads run ids, workload types and the node's counters; nothing can be changed through it).
 */
public record MetricsAddress(String host, int port) {
  /** The one-line refusal, naming the flag. */
  public static final class InvalidMetricsAddress extends IllegalArgumentException {
    InvalidMetricsAddress(String message) {
      super(message);
    }
  }

  public static MetricsAddress parse(String value, boolean allowPublic) {
    String v = value.strip();
    String host = "127.0.0.1";
    String port = v;
    int colon = v.lastIndexOf(':');
    if (colon >= 0) {
      host = v.substring(0, colon).replace("[", "").replace("]", "");
      port = v.substring(colon + 1);
      if (host.isEmpty()) {
        throw new InvalidMetricsAddress(
            "--metrics: '" + value + "' has no host; give PORT (loopback) or HOST:PORT");
      }
    }
    int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new InvalidMetricsAddress(
          "--metrics: port '" + port + "' is not a number (give PORT or HOST:PORT)");
    }
    if (p < 0 || p > 65535) {
      throw new InvalidMetricsAddress("--metrics: port " + p + " is outside 0..65535");
    }
    if (!allowPublic && !Loopback.is(host)) {
      throw new InvalidMetricsAddress(
          "--metrics: "
              + host
              + " is not a loopback address; the metrics endpoint has no authentication or TLS,"
              + " so it serves on loopback unless --metrics-public is given (then anyone who"
              + " reaches the port reads run ids, workload types and this node's counters)");
    }
    return new MetricsAddress(host, p);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}

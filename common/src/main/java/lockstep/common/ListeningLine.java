package lockstep.common;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's first line on stdout, "lockstep-agent VERSION listening on HOST:PORT (...)": how
 * whoever started it (the demo, SSH launch, a container test) learns the port it bound.
 */
public final class ListeningLine {
  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");

  private ListeningLine() {}

  /** The bound address in a line, if it is the listening line. */
  public record Bound(String host, int port) {
    public String address() {
      return host + ":" + port;
    }
  }

  /**
   * @param security how callers are let in, e.g. "mTLS", "token", "plaintext, loopback only"
   */
  public static String format(
      String version, String host, int port, String node, String root, String fs, String security) {
    return String.format(
        "lockstep-agent %s listening on %s:%d (node %s, root %s, fs %s, %s)",
        version, host, port, node, root, fs, security);
  }

  public static Optional<Bound> parse(String line) {
    Matcher m = LISTENING.matcher(line);
    return m.find()
        ? Optional.of(new Bound(m.group(1), Integer.parseInt(m.group(2))))
        : Optional.empty();
  }
}

package lockstep.coordinator.inventory;

import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * Expands agent addresses: {@code dns:///NAME:PORT} becomes one HOST:PORT per A/AAAA address behind
 * NAME (a Kubernetes headless Service has one per ready pod), so one flag reaches every node. Plain
 * HOST:PORT entries pass through unchanged.
 */
public final class AgentTargets {
  static final String DNS = "dns:///";
  private static final Pattern DNS_TARGET = Pattern.compile("dns:///([A-Za-z0-9._-]+):(\\d{1,5})");

  /** Name resolution; the production one is {@link InetAddress#getAllByName}. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String name) throws UnknownHostException;
  }

  private final Resolver resolver;

  public AgentTargets(Resolver resolver) {
    this.resolver = resolver;
  }

  public static AgentTargets system() {
    return new AgentTargets(InetAddress::getAllByName);
  }

  /**
   * @param source where the list came from, for messages ("--agents", a file name)
   * @throws ScenarioException for a malformed dns:/// target (exit 2)
   * @throws UncheckedIOException when a name does not resolve (exit 1: e.g. no agent is ready yet)
   */
  public List<String> expand(List<String> addresses, String source) {
    Set<String> out = new LinkedHashSet<>();
    for (String a : addresses) {
      String t = a.trim();
      if (!t.startsWith("dns:")) {
        out.add(t);
        continue;
      }
      Matcher m = DNS_TARGET.matcher(t);
      int port = m.matches() ? Integer.parseInt(m.group(2)) : -1;
      if (port < 1 || port > 65535) {
        throw new ScenarioException(
            "agent address '" + Echo.value(a) + "' (from " + source + ") is not dns:///NAME:PORT");
      }
      out.addAll(resolve(m.group(1), port, a));
    }
    return new ArrayList<>(out);
  }

  private List<String> resolve(String name, int port, String given) {
    InetAddress[] found;
    try {
      found = resolver.resolve(name);
    } catch (UnknownHostException e) {
      throw new UncheckedIOException(
          "agent address '"
              + Echo.value(given)
              + "': name '"
              + Echo.value(name)
              + "' does not resolve to any address"
              + " (for a headless Service: no agent pod is ready yet?)",
          e);
    }
    List<String> out = new ArrayList<>();
    for (InetAddress ip : found) {
      out.add(hostPort(ip, port));
    }
    out.sort(null);
    return out;
  }

  static String hostPort(InetAddress ip, int port) {
    if (ip instanceof Inet6Address) {
      String text = ip.getHostAddress();
      int scope = text.indexOf('%');
      return "[" + (scope >= 0 ? text.substring(0, scope) : text) + "]:" + port;
    }
    return ip.getHostAddress() + ":" + port;
  }
}

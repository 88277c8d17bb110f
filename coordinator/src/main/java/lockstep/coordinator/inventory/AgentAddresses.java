package lockstep.coordinator.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * The rule for an agent address as a user writes it: HOST:PORT, [IPv6]:PORT, or a gRPC dns:///
 * target.
 */
public final class AgentAddresses {
  private static final Pattern HOST_PORT =
      Pattern.compile("(\\[[0-9a-fA-F:]+\\]|[A-Za-z0-9._-]+):(\\d{1,5})");

  private AgentAddresses() {}

  /**
   * The addresses trimmed; refuses an empty list, a malformed address and one listed twice, naming
   * the source.
   */
  public static List<String> validate(List<String> addresses, String source) {
    if (addresses.isEmpty()) {
      throw new ScenarioException(
          "no agents: give --agents HOST:PORT,HOST:PORT or 'agents:' in " + source);
    }
    List<String> out = new ArrayList<>();
    for (String a : addresses) {
      String t = a.trim();
      var m = HOST_PORT.matcher(t);
      if (!t.startsWith("dns:///")
          && (!m.matches()
              || Integer.parseInt(m.group(2)) > 65535
              || Integer.parseInt(m.group(2)) == 0)) {
        throw new ScenarioException(
            "agent address '" + Echo.value(a) + "' (from " + source + ") is not HOST:PORT");
      }
      if (out.contains(t)) {
        throw new ScenarioException(
            "agent address '" + Echo.value(a) + "' is listed twice (from " + source + ")");
      }
      out.add(t);
    }
    return out;
  }
}

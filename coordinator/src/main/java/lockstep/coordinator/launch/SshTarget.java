package lockstep.coordinator.launch;

import java.util.regex.Pattern;
import lockstep.coordinator.scenario.ScenarioException;

/** {@code [USER@]HOST} as given to ssh; HOST may be an alias of the ssh configuration. */
public record SshTarget(String spec) {
  private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");
  private static final Pattern FORM =
      Pattern.compile("([A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9._:\\[\\]-]+");

  public SshTarget {
    if (spec == null || !FORM.matcher(spec).matches() || spec.startsWith("-")) {
      throw new ScenarioException("--ssh: '" + spec + "' is not [USER@]HOST");
    }
  }

  /** The host part as written (an alias or a name; ssh -G gives the real one). */
  public String host() {
    int at = spec.indexOf('@');
    return spec.substring(at + 1);
  }

  /**
   * The node name for an agent launched here: the first label of the host as written
   * (admin@orca.example.net: orca); null for an IP address, so the agent uses its host name.
   */
  public String defaultNodeName() {
    String host = host();
    if (IP_LITERAL.matcher(host).matches()) {
      return null;
    }
    int dot = host.indexOf('.');
    return dot > 0 ? host.substring(0, dot) : host;
  }

  @Override
  public String toString() {
    return spec;
  }
}

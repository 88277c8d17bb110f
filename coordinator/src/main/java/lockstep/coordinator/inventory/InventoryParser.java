package lockstep.coordinator.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;
import lockstep.coordinator.scenario.YamlFiles;

/**
 * Reads an inventory YAML file; every error names the file and the field ({@code nodes[2].root}).
 */
public final class InventoryParser {
  /** The agent's rule for --name. */
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  private static final Pattern SSH =
      Pattern.compile("([A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9._:\\[\\]-]+");
  private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,62}");
  private static final Set<String> NODE_FIELDS =
      Set.of("name", "address", "root", "ssh", "ssh-port", "listen", "labels", "role");

  private static final Set<String> SECURITY_FIELDS = Set.of("ca", "cert", "key", "token-file");

  public Inventory parse(Path file) {
    return parse(YamlFiles.read(file, "inventory"), file.toString());
  }

  public Inventory parse(String yaml, String source) {
    return parse(yaml, source, Path.of(source).toAbsolutePath().getParent());
  }

  /** The top-level {@code lab:}: the lab directory (absolute) whose guests these nodes are. */
  private static Path lab(JsonNode root, String source) {
    JsonNode v = root.get("lab");
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual() || !v.asText().startsWith("/")) {
      throw error(source, "lab", "must be the lab's directory, an absolute path");
    }
    return Path.of(v.asText());
  }

  /**
   * @param baseDir what relative paths in {@code security:} are relative to (the inventory's
   *     directory)
   */
  public Inventory parse(String yaml, String source, Path baseDir) {
    JsonNode root = YamlFiles.parse(yaml, "inventory " + source + ": top level");
    if (root == null || !root.isObject()) {
      throw error(source, "top level", "must be a mapping with 'nodes:'");
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!f.equals("nodes") && !f.equals("security") && !f.equals("lab")) {
        throw error(source, f, "unknown field (known: nodes, security, lab)");
      }
    }
    JsonNode list = root.get("nodes");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw error(source, "nodes", "must be a non-empty list of nodes");
    }
    List<InventoryNode> nodes = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> addresses = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "nodes[" + i + "]";
      InventoryNode n = node(list.get(i), at, source);
      if (!names.add(n.name())) {
        throw error(source, at + ".name", "'" + n.name() + "' is used by another node too");
      }
      if (!addresses.add(n.address())) {
        throw error(source, at + ".address", "'" + n.address() + "' is used by another node too");
      }
      nodes.add(n);
    }
    return new Inventory(
        source, nodes, security(root.get("security"), source, baseDir), lab(root, source));
  }

  private static InventorySecurity security(JsonNode s, String source, Path baseDir) {
    if (s == null || s.isNull()) {
      return InventorySecurity.NONE;
    }
    if (!s.isObject()) {
      throw error(source, "security", "must be a mapping of ca, cert, key, token-file");
    }
    for (Iterator<String> it = s.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!SECURITY_FIELDS.contains(f)) {
        throw error(source, "security." + f, "unknown field (known: ca, cert, key, token-file)");
      }
    }
    return new InventorySecurity(
        path(s, "ca", source, baseDir),
        path(s, "cert", source, baseDir),
        path(s, "key", source, baseDir),
        path(s, "token-file", source, baseDir));
  }

  private static Path path(JsonNode s, String field, String source, Path baseDir) {
    String v = optional(s, field, "security", source);
    if (v == null || v.isEmpty()) {
      return null;
    }
    Path p = Path.of(v);
    return p.isAbsolute() || baseDir == null ? p : baseDir.resolve(p);
  }

  private static InventoryNode node(JsonNode n, String at, String source) {
    if (n == null || !n.isObject()) {
      throw error(source, at, "must be a mapping with name, address, root");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!NODE_FIELDS.contains(f)) {
        throw error(
            source,
            at + "." + f,
            "unknown field (known: name, address, root, ssh, ssh-port, listen, labels)");
      }
    }
    String name = required(n, "name", at, source);
    if (!NODE_NAME.matcher(name).matches()) {
      throw error(
          source,
          at + ".name",
          "'" + Echo.value(name) + "' must be letters, digits, '.', '_' or '-' (at most 63)");
    }
    String address = required(n, "address", at, source);
    try {
      AgentAddresses.validate(List.of(address), source + " " + at + ".address");
    } catch (ScenarioException e) {
      throw error(source, at + ".address", "'" + Echo.value(address) + "' is not HOST:PORT");
    }
    if (address.startsWith("dns:///")) {
      throw error(
          source,
          at + ".address",
          "'"
              + Echo.value(address)
              + "': a node has one HOST:PORT (dns:/// names belong on --agents)");
    }
    String root = required(n, "root", at, source);
    if (!root.startsWith("/")) {
      throw error(source, at + ".root", "'" + Echo.value(root) + "' must be an absolute path");
    }
    String ssh = optional(n, "ssh", at, source);
    if (ssh != null && (!SSH.matcher(ssh).matches() || ssh.startsWith("-"))) {
      throw error(source, at + ".ssh", "'" + Echo.value(ssh) + "' is not [USER@]HOST");
    }
    Integer sshPort = null;
    String p = optional(n, "ssh-port", at, source);
    if (p != null) {
      try {
        sshPort = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        sshPort = -1;
      }
      if (sshPort < 1 || sshPort > 65535) {
        throw error(source, at + ".ssh-port", "'" + Echo.value(p) + "' is not a port (1..65535)");
      }
    }
    String listen = optional(n, "listen", at, source);
    if (listen != null) {
      try {
        AgentAddresses.validate(List.of(listen), source + " " + at + ".listen");
      } catch (ScenarioException e) {
        throw error(source, at + ".listen", "'" + Echo.value(listen) + "' is not HOST:PORT");
      }
      if (listen.startsWith("dns:///")) {
        throw error(source, at + ".listen", "'" + Echo.value(listen) + "' is not HOST:PORT");
      }
    }
    String role = optional(n, "role", at, source);
    if (role != null
        && !role.equals(InventoryNode.ROLE_WORKLOAD)
        && !role.equals(InventoryNode.ROLE_WATCH)) {
      throw error(
          source,
          at + ".role",
          "'"
              + Echo.value(role)
              + "' is not a role: "
              + InventoryNode.ROLE_WORKLOAD
              + " (the default) or "
              + InventoryNode.ROLE_WATCH
              + " (no workload, the node's resources only)");
    }
    return new InventoryNode(
        name,
        address,
        root,
        ssh,
        labels(n.get("labels"), at + ".labels", source),
        sshPort,
        listen,
        InventoryNode.ROLE_WATCH.equals(role));
  }

  private static Map<String, String> labels(JsonNode labels, String at, String source) {
    Map<String, String> out = new LinkedHashMap<>();
    if (labels == null || labels.isNull()) {
      return out;
    }
    if (!labels.isObject()) {
      throw error(source, at, "must be a mapping of key: value");
    }
    for (var it = labels.fields(); it.hasNext(); ) {
      var e = it.next();
      if (!LABEL_KEY.matcher(e.getKey()).matches()) {
        throw error(
            source, at + "." + e.getKey(), "label keys are letters, digits, '.', '_', '/' or '-'");
      }
      if (!e.getValue().isValueNode() || e.getValue().isNull()) {
        throw error(
            source, at + "." + e.getKey(), "must be a single value (text, number or boolean)");
      }
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  private static String required(JsonNode n, String field, String at, String source) {
    String v = optional(n, field, at, source);
    if (v == null || v.isBlank()) {
      throw error(source, at + "." + field, "is required");
    }
    return v;
  }

  private static String optional(JsonNode n, String field, String at, String source) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isValueNode()) {
      throw error(source, at + "." + field, "must be a single value");
    }
    return v.asText().trim();
  }

  private static ScenarioException error(String source, String field, String problem) {
    return new ScenarioException("inventory " + source + ": " + field + ": " + problem);
  }
}

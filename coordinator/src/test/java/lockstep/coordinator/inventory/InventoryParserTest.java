package lockstep.coordinator.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import lockstep.coordinator.scenario.ScenarioException;
import org.junit.jupiter.api.Test;

class InventoryParserTest {
  private final InventoryParser parser = new InventoryParser();

  @Test
  void readsTheExampleInventory() {
    Path example = Path.of("..", "deploy", "inventory.example.yaml");
    Inventory inv = parser.parse(example);
    assertThat(inv.nodes()).extracting(InventoryNode::name).containsExactly("orca", "porpoise");
    InventoryNode orca = inv.nodes().get(0);
    assertThat(orca.address()).isEqualTo("orca.example.net:7070");
    assertThat(orca.host()).isEqualTo("orca.example.net");
    assertThat(orca.port()).isEqualTo(7070);
    assertThat(orca.root()).isEqualTo("/mnt/ocfs2/lockstep");
    assertThat(orca.ssh()).isEqualTo("admin@orca.example.net");
    assertThat(orca.labels()).isEqualTo(Map.of("rack", "a"));
    assertThat(inv.labelsByAddress())
        .containsEntry("porpoise.example.net:7070", Map.of("rack", "b"));
  }

  @Test
  void sshAndLabelsAreOptionalAndIpv6AddressesWork() {
    Inventory inv =
        parser.parse("nodes:\n  - {name: n1, address: \"[::1]:7070\", root: /data}\n", "t.yaml");
    assertThat(inv.nodes().get(0).ssh()).isNull();
    assertThat(inv.nodes().get(0).labels()).isEmpty();
    assertThat(inv.nodes().get(0).host()).isEqualTo("::1");
  }

  @Test
  void aNodeWithRoleWatchIsWatchOnly() {
    Inventory inv =
        parser.parse(
            "nodes:\n"
                + "  - {name: c1, address: \"h1:7070\", root: /mnt/nfs/l}\n"
                + "  - {name: c2, address: \"h2:7070\", root: /mnt/nfs/l, role: workload}\n"
                + "  - {name: srv, address: \"h3:7070\", root: /srv/l, role: watch}\n",
            "t.yaml");
    assertThat(inv.nodes())
        .extracting(InventoryNode::watchOnly)
        .containsExactly(false, false, true);
    assertThat(inv.watchOnlyAddresses()).containsExactly("h3:7070");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r, role: server}\n",
        "inventory t.yaml: nodes[0].role: 'server' is not a role: workload (the default) or watch"
            + " (no workload, the node's resources only)");
  }

  @Test
  void errorsNameTheFileAndTheField() {
    assertError("nodes: []\n", "inventory t.yaml: nodes: must be a non-empty list of nodes");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r}\n  - {name: a, address: h:2, root: /r}\n",
        "inventory t.yaml: nodes[1].name: 'a' is used by another node too");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r}\n  - {name: b, address: h:1, root: /r}\n",
        "inventory t.yaml: nodes[1].address: 'h:1' is used by another node too");
    assertError(
        "nodes:\n  - {name: a, address: h, root: /r}\n",
        "inventory t.yaml: nodes[0].address: 'h' is not HOST:PORT");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: r}\n",
        "inventory t.yaml: nodes[0].root: 'r' must be an absolute path");
    assertError(
        "nodes:\n  - {name: a, address: h:1}\n", "inventory t.yaml: nodes[0].root: is required");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r, rack: 3}\n",
        "inventory t.yaml: nodes[0].rack: unknown field");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r, ssh: -oProxyCommand=x}\n",
        "nodes[0].ssh: '-oProxyCommand=x' is not [USER@]HOST");
    assertError(
        "nodes:\n  - {name: a, address: h:1, root: /r, labels: {rack: [1, 2]}}\n",
        "nodes[0].labels.rack: must be a single value");
    assertError(
        "hosts: []\n", "inventory t.yaml: hosts: unknown field (known: nodes, security, lab)");
    assertError("nodes: [\n", "inventory t.yaml: top level: invalid YAML");
  }

  @Test
  void theSecuritySectionNamesTlsFilesRelativeToTheInventory() {
    Inventory inv =
        parser.parse(
            "security: {ca: certs/ca.pem, cert: /etc/c.pem, key: certs/c-key.pem, token-file: t}\n"
                + "nodes:\n  - {name: a, address: h:1, root: /r}\n",
            "t.yaml",
            Path.of("/site"));
    assertThat(inv.security())
        .isEqualTo(
            new InventorySecurity(
                Path.of("/site/certs/ca.pem"),
                Path.of("/etc/c.pem"),
                Path.of("/site/certs/c-key.pem"),
                Path.of("/site/t")));
    assertThatThrownBy(
            () ->
                parser.parse(
                    "security: {ca: x, password: y}\n"
                        + "nodes:\n"
                        + "  - {name: a, address: h:1, root: /r}\n",
                    "t.yaml"))
        .hasMessageContaining(
            "inventory t.yaml: security.password: unknown field (known: ca, cert, key,"
                + " token-file)");
    assertThat(parser.parse("nodes:\n  - {name: a, address: h:1, root: /r}\n", "t.yaml").security())
        .isEqualTo(InventorySecurity.NONE);
  }

  @Test
  void aMissingFileIsOneLine() {
    assertThatThrownBy(() -> parser.parse(Path.of("no-such-inventory.yaml")))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("inventory no-such-inventory.yaml: file not found");
  }

  private void assertError(String yaml, String message) {
    assertThatThrownBy(() -> parser.parse(yaml, "t.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining(message);
  }
}

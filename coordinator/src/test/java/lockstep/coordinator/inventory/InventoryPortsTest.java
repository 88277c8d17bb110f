package lockstep.coordinator.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lockstep.coordinator.scenario.ScenarioException;
import org.junit.jupiter.api.Test;

/** The optional ssh-port and listen of a node: for nodes behind a port forward or NAT. */
class InventoryPortsTest {
  private final InventoryParser parser = new InventoryParser();

  @Test
  void sshPortAndListenAreRead() {
    InventoryNode n =
        parser
            .parse(
                "nodes:\n  - {name: n1, address: 127.0.0.1:7071, listen: 0.0.0.0:7070, root: /d,"
                    + " ssh: root@127.0.0.1, ssh-port: 2221}\n",
                "t.yaml")
            .nodes()
            .get(0);
    assertThat(n.sshPort()).isEqualTo(2221);
    assertThat(n.listen()).isEqualTo("0.0.0.0:7070");
    assertThat(n.port()).isEqualTo(7071);
  }

  @Test
  void withoutThemTheyAreAbsent() {
    InventoryNode n =
        parser
            .parse("nodes:\n  - {name: n1, address: h:7070, root: /d}\n", "t.yaml")
            .nodes()
            .get(0);
    assertThat(n.sshPort()).isNull();
    assertThat(n.listen()).isNull();
  }

  @Test
  void badValuesNameTheField() {
    assertThatThrownBy(
            () ->
                parser.parse(
                    "nodes:\n  - {name: n1, address: h:7070, root: /d, ssh-port: 70000}\n",
                    "t.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("inventory t.yaml: nodes[0].ssh-port: '70000' is not a port (1..65535)");
    assertThatThrownBy(
            () ->
                parser.parse(
                    "nodes:\n  - {name: n1, address: h:7070, root: /d, ssh-port: two}\n", "t.yaml"))
        .hasMessageContaining("nodes[0].ssh-port: 'two' is not a port");
    assertThatThrownBy(
            () ->
                parser.parse(
                    "nodes:\n  - {name: n1, address: h:7070, root: /d, listen: 7070}\n", "t.yaml"))
        .hasMessage("inventory t.yaml: nodes[0].listen: '7070' is not HOST:PORT");
  }
}

package lockstep.coordinator.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import lockstep.coordinator.scenario.ScenarioException;
import org.junit.jupiter.api.Test;

class AgentTargetsTest {
  @Test
  void dnsNameBecomesOneAgentPerAddressOfTheName() throws Exception {
    List<String> expected =
        Arrays.stream(InetAddress.getAllByName("localhost"))
            .map(ip -> AgentTargets.hostPort(ip, 7070))
            .sorted()
            .toList();
    List<String> got = AgentTargets.system().expand(List.of("dns:///localhost:7070"), "--agents");
    assertThat(got).isEqualTo(expected).isNotEmpty();
    for (String a : got) {
      String host = a.substring(0, a.lastIndexOf(':')).replace("[", "").replace("]", "");
      assertThat(InetAddress.getByName(host).isLoopbackAddress()).as(a).isTrue();
    }
  }

  @Test
  void everyAddressOfAServiceNameIsKeptAndPlainAddressesPassThrough() throws Exception {
    InetAddress[] pods = {
      InetAddress.getByName("127.0.0.12"),
      InetAddress.getByName("127.0.0.11"),
      InetAddress.getByName("::1")
    };
    AgentTargets targets =
        new AgentTargets(
            name -> {
              assertThat(name).isEqualTo("lockstep-agents.lockstep.svc.cluster.local");
              return pods;
            });
    assertThat(
            targets.expand(
                List.of("127.0.0.1:7000", "dns:///lockstep-agents.lockstep.svc.cluster.local:7070"),
                "--agents"))
        .containsExactly(
            "127.0.0.1:7000", "127.0.0.11:7070", "127.0.0.12:7070", "[0:0:0:0:0:0:0:1]:7070");
  }

  @Test
  void badTargetsAndUnknownNamesAreOneLine() {
    AgentTargets targets =
        new AgentTargets(
            name -> {
              throw new java.net.UnknownHostException(name);
            });
    assertThatThrownBy(() -> targets.expand(List.of("dns:///name"), "--agents"))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("agent address 'dns:///name' (from --agents) is not dns:///NAME:PORT");
    assertThatThrownBy(() -> targets.expand(List.of("dns:///name:0"), "--agents"))
        .isInstanceOf(ScenarioException.class);
    assertThatThrownBy(() -> targets.expand(List.of("dns:///gone:7070"), "--agents"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("name 'gone' does not resolve");
  }
}

package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep lab}: two QEMU guests with real kernels, GFS2 and OCFS2 up at once, the agents
 * deployed by the project's Ansible playbook under its systemd unit with mTLS; {@code lockstep
 * agents} and one tiny scenario per file system through {@code lab run}; {@code lab set} on every
 * node. {@link LabTeardownIT} (the last lab class: failsafe runs classes alphabetically) takes the
 * lab down. The lab is {@link LabCluster}'s (its own directory and namespace, not a user's lab).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();
  private static LabCluster lab;

  @TempDir static Path work;

  @BeforeAll
  static void machineCanRunTheLab() throws Exception {
    MACHINE.checkOnce(LabCluster::requireMachine);
  }

  @Test
  @Order(1)
  void badInputIsOneLineAndNonZero() {
    Cli r = LabCluster.lab("up", "nfs");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip()).isEqualTo("lockstep: unknown stack 'nfs' (known: gfs2, ocfs2)");
    r = LabCluster.lab("set", "plock_rate_limits=5");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("unknown key 'plock_rate_limits'");
    if (!Files.exists(LabCluster.DIR.resolve("state.json"))) {
      r = LabCluster.lab("run", "examples/ping-pong.yaml");
      assertThat(r.exitCode()).isNotZero();
      assertThat(r.err().strip()).startsWith("lockstep: no lab is up in " + LabCluster.DIR);
    }
  }

  @Test
  @Order(2)
  void bothStacksComeUpAndTheAgentsAnswerOverMutualTls() throws Exception {
    lab = LabCluster.up();
    assertThat(run("ip", "netns", "pids", lab.namespace)).isNotBlank();
    for (String stack : List.of("gfs2", "ocfs2")) {
      Path inv = LabCluster.DIR.resolve(stack + "/inventory.yaml");
      assertThat(Files.readString(inv)).contains("security:", "ssh-port: 2221", "lab-accel:");
      Cli a = LabCluster.lab("agents", "--stack", stack);
      assertThat(a.exitCode()).as("lab agents --stack %s", stack).isZero();
    }
  }

  @Test
  @Order(3)
  void aTinyScenarioRunsOnEachFileSystem() throws Exception {
    String pingPong =
        "name: lab-gfs2-ping-pong\nplan: [all]\nworkload: {type: ping-pong, file: ping-pong.dat,"
            + " processes: 1, lock: fcntl, duration: 3s, warmup: 300ms}\n";
    String write =
        "name: lab-ocfs2-write\nplan: [all]\nworkload: {type: write, file: \"w.{node}\","
            + " block-size: 64KiB, size: 8MiB, fdatasync: true}\n";
    for (var c : List.of(List.of("gfs2", pingPong), List.of("ocfs2", write))) {
      String stack = c.get(0);
      RunRecord run = lab.run(stack, c.get(1), work);
      assertThat(run.status()).isEqualTo(RunStatus.OK);
      assertThat(run.agents())
          .extracting(AgentRecord::node)
          .containsExactlyInAnyOrder("node1", "node2");
      for (AgentRecord a : run.agents()) {
        assertThat(a.fsType()).isEqualTo(stack);
        assertThat(a.labels()).containsEntry("lab-stack", stack).containsKey("lab-accel");
      }
    }
  }

  @Test
  @Order(4)
  void settingsChangeOnEveryNode() throws Exception {
    Cli r = LabCluster.lab("set", "plock_rate_limit=0", "disk-mbps=30");
    assertThat(r.exitCode()).as(r.err()).isZero();
    for (String node : List.of("node1", "node2")) {
      Cli d = lab.ssh(node, "dlm_tool", "dump_config");
      assertThat(d.exitCode()).isZero();
      assertThat(d.out()).contains("plock_rate_limit=0");
    }
    assertThat(Files.readString(LabCluster.DIR.resolve("gfs2/inventory.yaml")))
        .contains("lab-plock-rate-limit: 0");
    assertThat(Files.readString(LabCluster.DIR.resolve("ocfs2/inventory.yaml")))
        .contains("lab-disk-mbps: 30");
    assertThat(LabCluster.lab("status").exitCode()).isZero();
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }
}

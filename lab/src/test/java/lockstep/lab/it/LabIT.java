package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.it.RepoFiles;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.lab.Stack;
import org.junit.jupiter.api.Test;

/**
 * {@code lockstep lab} as a user meets it: bad input is one line, both stacks up at once on every
 * node, the agents deployed by the project's Ansible playbook under its systemd unit and answering
 * over mTLS, one tiny scenario per file system through {@code lab run}, {@code lab set} on every
 * node, {@code lab status}.
 */
@OnLab(stacks = {Stack.GFS2, Stack.OCFS2})
class LabIT extends LabTest {

  @Test
  void badInputIsOneLineAndNonZeroAndMakesNothing() {
    Path elsewhere = work.resolve("no-lab");
    Cli r = Cli.run("lab", "up", "cephfs", "--dir", elsewhere.toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip())
        .isEqualTo("lockstep: unknown stack 'cephfs' (known: gfs2, ocfs2, nfs)");
    r = Cli.run("lab", "up", "nfs", "--servers", "0", "--dir", elsewhere.toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip())
        .isEqualTo(
            "lockstep: --servers: nfs needs a server node (the last node serves: --servers 1;"
                + " a lab that is up keeps its nodes: lab down first)");
    r = Cli.run("lab", "up", "gfs2", "--nodes", "5", "--dir", elsewhere.toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip()).isEqualTo("lockstep: --nodes: 5 is outside 2..4");
    r =
        Cli.run(
            "lab", "up", "gfs2", "--nodes", "3", "--servers", "2", "--dir", elsewhere.toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip())
        .isEqualTo("lockstep: --servers: 2 of 3 nodes leaves fewer than 2 clients");
    r = Cli.run("lab", "run", "examples/ping-pong.yaml", "--dir", elsewhere.toString());
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip()).startsWith("lockstep: no lab is up in " + elsewhere);
    assertThat(elsewhere).doesNotExist();
    r = TestLab.lab("set", "plock_rate_limits=5");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("unknown key 'plock_rate_limits'");
    String scenario = RepoFiles.root().resolve("examples/ping-pong.yaml").toString();
    r = TestLab.lab("run", "--stack", "gfs2", scenario, "--nodes", "node9");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("--nodes: no node 'node9' in ", "(node1, node2");
  }

  @Test
  void bothStacksAreUpOnEveryNodeAndTheAgentsAnswerOverMutualTls() throws Exception {
    for (String stack : List.of("gfs2", "ocfs2")) {
      Path inv = TestLab.DIR.resolve(stack + "/inventory.yaml");
      assertThat(Files.readString(inv))
          .contains("security:", "ssh-port: 2221", "lab-accel:", "lab-nodes: " + lab.nodes);
      Cli a = TestLab.lab("agents", "--stack", stack);
      assertThat(a.exitCode()).as("lab agents --stack %s: %s", stack, a.err()).isZero();
      // each guest's one agent (the same address for both stacks) answers with this stack's root
      for (int i = 1; i <= lab.nodes; i++) {
        assertThat(a.out())
            .containsPattern(
                "127\\.0\\.0\\.1:707"
                    + i
                    + " +node"
                    + i
                    + " .* yes +"
                    + stack
                    + " .* /mnt/"
                    + stack
                    + "/lockstep");
      }
    }
  }

  @Test
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
      assertThat(run.agents()).hasSize(lab.nodes);
      assertThat(run.steps().get(0).results()).hasSize(lab.nodes);
      for (AgentRecord a : run.agents()) {
        assertThat(a.fsType()).isEqualTo(stack);
        assertThat(a.labels())
            .containsEntry("lab-stack", stack)
            .containsEntry("lab-nodes", Integer.toString(lab.nodes))
            .containsKey("lab-accel");
      }
    }
  }

  @Test
  void settingsChangeOnEveryNode() throws Exception {
    Cli r = TestLab.lab("set", "plock_rate_limit=0", "disk-mbps=30");
    assertThat(r.exitCode()).as(r.err()).isZero();
    for (int i = 1; i <= lab.nodes; i++) {
      Cli d = lab.ssh("node" + i, "dlm_tool", "dump_config");
      assertThat(d.exitCode()).isZero();
      assertThat(d.out()).contains("plock_rate_limit=0");
    }
    assertThat(Files.readString(TestLab.DIR.resolve("gfs2/inventory.yaml")))
        .contains("lab-plock-rate-limit: 0");
    assertThat(Files.readString(TestLab.DIR.resolve("ocfs2/inventory.yaml")))
        .contains("lab-disk-mbps: 30");
    Cli status = TestLab.lab("status");
    assertThat(status.exitCode()).isZero();
    assertThat(status.out()).contains("nodes (node1 client", "disk-mbps=30", "plock_rate_limit=0");
  }
}

package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.launch.SshClient;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep agents launch/stop} with the system's OpenSSH against two sshd containers (nodes
 * "node-a" and "node-b", aliases of a test ssh configuration for 127.0.0.1 and their ports), then a
 * run on the launched agents.
 */
class SshLaunchIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  private static final Pattern AGENTS = Pattern.compile("(?m)^agents: (\\S+)$");

  static Path dir;
  static Path sshConfig;
  static SharedDir shared;
  static SshdNode nodeA;
  static SshdNode nodeB;
  static int closedPort;

  @TempDir Path work;

  @BeforeAll
  static void startNodes() throws Exception {
    if (!MACHINE.checkOnce(
        () -> {
          Requirements.docker();
          for (String p : List.of("ssh", "scp", "ssh-keygen")) {
            Requirements.program(p);
          }
          Requirements.image(SshdNode.image(), "scripts/ci/sshd-image.sh builds it");
        })) {
      return;
    }
    dir = Files.createTempDirectory("lockstep-ssh-it");
    Process keygen =
        new ProcessBuilder(SshClient.keygen(dir.resolve("id_ed25519"), "lockstep-it"))
            .inheritIO()
            .start();
    assertThat(keygen.waitFor(30, TimeUnit.SECONDS) && keygen.exitValue() == 0)
        .as("ssh-keygen")
        .isTrue();
    Path keys = Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
    shared = SharedDir.create("lockstep-ssh-it");
    nodeA = SshdNode.start("node-a", keys, shared.hostMountFor(0));
    nodeB = SshdNode.start("node-b", keys, shared.hostMountFor(1));
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    StringBuilder cfg = new StringBuilder();
    for (var n :
        List.of(
            List.of("node-a", nodeA.port),
            List.of("node-b", nodeB.port),
            List.of("node-c", closedPort))) {
      cfg.append("Host ")
          .append(n.get(0))
          .append("\n  HostName 127.0.0.1\n  Port ")
          .append(n.get(1))
          .append('\n');
    }
    cfg.append("Host *\n  User root\n  IdentityFile ")
        .append(dir.resolve("id_ed25519"))
        .append("\n  IdentitiesOnly yes\n  UserKnownHostsFile ")
        .append(dir.resolve("known_hosts"))
        .append("\n  StrictHostKeyChecking accept-new\n  LogLevel ERROR\n");
    sshConfig = Files.writeString(dir.resolve("ssh_config"), cfg);
  }

  @AfterAll
  static void stopNodes() throws Exception {
    Closing.closeEach(nodeA, nodeB, shared);
  }

  @AfterEach
  void stopAgents() {
    if (nodeA != null && nodeB != null) {
      Cli.run("agents", "stop", "--ssh", "node-a,node-b", "--ssh-config", sshConfig.toString());
    }
  }

  private Cli launch(String nodes, String root) {
    return Cli.run(
        "agents",
        "launch",
        "--ssh",
        nodes,
        "--root",
        root,
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--ssh-config",
        sshConfig.toString(),
        "--agent-jar",
        RepoFiles.agentJar().toString());
  }

  @Test
  void launchedAgentsAnswerRunAnExperimentAndStop() throws Exception {
    Cli launched = launch("node-a,node-b", shared.containerRoot());
    assertThat(launched.exitCode()).as(launched.err()).isZero();
    Matcher m = AGENTS.matcher(launched.out());
    assertThat(m.find()).as("'agents:' line in %s", launched.out()).isTrue();
    List<String> addresses = List.of(m.group(1).split(","));
    assertThat(addresses).hasSize(2).allMatch(a -> a.startsWith("127.0.0.1:"));
    assertThat(launched.out()).contains("node node-a", "node node-b");
    assertThat(nodeA.agentRunning()).isTrue();
    assertThat(nodeB.agentRunning()).isTrue();

    Cli again = launch("node-a", shared.containerRoot());
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err()).contains("node-a").contains("still running");

    Path scenario =
        Files.writeString(
            work.resolve("s.yaml"),
            """
            name: ssh-write
            plan: [solo, all]
            workload: {type: write, file: "f.{node}", block-size: 64KiB, size: 4MiB}
            """);
    Cli run = Cli.run(Cli.runArgs(scenario, addresses, work.resolve("out")));
    assertThat(run.exitCode()).as(run.err()).isZero();
    try (var files = Files.walk(work.resolve("out"))) {
      RunRecord r =
          ResultsStore.load(
              files.filter(p -> p.endsWith(ResultsStore.RUN_FILE)).findFirst().orElseThrow());
      assertThat(r.status()).isEqualTo(RunStatus.OK);
      assertThat(r.agents()).extracting(a -> a.node()).containsExactly("node-a", "node-b");
    }
    assertThat(shared.leftovers()).isEmpty();

    Cli stopped =
        Cli.run("agents", "stop", "--ssh", "node-a,node-b", "--ssh-config", sshConfig.toString());
    assertThat(stopped.exitCode()).isZero();
    assertThat(stopped.out().lines().filter(l -> l.contains("stopped agent pid"))).hasSize(2);
    assertThat(nodeA.agentRunning()).isFalse();
    assertThat(nodeB.agentRunning()).isFalse();
    for (String a : addresses) {
      try (GrpcAgent agent = GrpcAgent.connect(a)) {
        assertThatThrownBy(agent::describe).isInstanceOf(AgentCallException.class);
      }
    }
    Cli none = Cli.run("agents", "stop", "--ssh", "node-a", "--ssh-config", sshConfig.toString());
    assertThat(none.out()).contains("no agent launched by lockstep is running there");
  }

  @Test
  void aRootTheAgentCannotUseFailsInOneLineAndLeavesNothingRunning() throws Exception {
    Cli launched = launch("node-a", "/nonexistent/lockstep");
    assertThat(launched.exitCode()).isEqualTo(1);
    assertThat(launched.err().lines().toList()).hasSize(1);
    assertThat(launched.err()).contains("node-a", "--root", "/nonexistent/lockstep");
    assertThat(nodeA.agentRunning()).isFalse();
    assertThat(
            nodeA.container.execInContainer("sh", "-c", "ls /root/.lockstep/*.pid").getExitCode())
        .isNotZero();
  }

  @Test
  void anUnreachableNodeFailsAndTheOthersAreStoppedAgain() throws Exception {
    Cli launched = launch("node-a,node-c", shared.containerRoot());
    assertThat(launched.exitCode()).isEqualTo(1);
    assertThat(launched.err()).contains("launch failed: node-c").contains("refused");
    assertThat(nodeA.agentRunning()).isFalse();
  }
}

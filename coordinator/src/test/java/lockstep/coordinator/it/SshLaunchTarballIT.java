package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.coordinator.launch.SshClient;
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
 * {@code lockstep agents launch} to a node without Java (an sshd container of the Java-free Debian
 * image, lockstep/sshd-debian12:local): the agent's tarball is copied, unpacked once and the agent
 * runs on its own runtime.
 */
class SshLaunchTarballIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  static final String IMAGE_ENV = "LOCKSTEP_SSHD_NOJAVA_IMAGE";
  static final String DEFAULT_IMAGE = "lockstep/sshd-debian12:local";
  private static final Pattern AGENTS = Pattern.compile("(?m)^agents: (\\S+)$");

  static Path dir;
  static Path sshConfig;
  static SharedDir shared;
  static SshdNode node;

  @TempDir Path work;

  static String image() {
    String env = System.getenv(IMAGE_ENV);
    return env == null || env.isBlank() ? DEFAULT_IMAGE : env;
  }

  @BeforeAll
  static void startNode() throws Exception {
    if (!MACHINE.checkOnce(
        () -> {
          Requirements.docker();
          for (String p : List.of("ssh", "scp", "ssh-keygen")) {
            Requirements.program(p);
          }
          Requirements.image(
              image(),
              "LOCKSTEP_SSHD_IMAGE="
                  + DEFAULT_IMAGE
                  + " LOCKSTEP_AGENT_BASE_IMAGE=lockstep/debian12:local LOCKSTEP_SSHD_JAVA=absent"
                  + " scripts/ci/sshd-image.sh builds it");
          RepoFiles.agentTarball();
        })) {
      return;
    }
    dir = Files.createTempDirectory("lockstep-ssh-tarball-it");
    Process keygen =
        new ProcessBuilder(SshClient.keygen(dir.resolve("id_ed25519"), "lockstep-it"))
            .inheritIO()
            .start();
    assertThat(keygen.waitFor(30, TimeUnit.SECONDS) && keygen.exitValue() == 0)
        .as("ssh-keygen")
        .isTrue();
    Path keys = Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
    shared = SharedDir.create("lockstep-ssh-tarball-it");
    node = SshdNode.start(image(), "node-nojava", keys, shared.hostMountFor(0));
    sshConfig =
        Files.writeString(
            dir.resolve("ssh_config"),
            "Host node-nojava\n  HostName 127.0.0.1\n  Port "
                + node.port
                + "\nHost *\n  User root\n  IdentityFile "
                + dir.resolve("id_ed25519")
                + "\n  IdentitiesOnly yes\n  UserKnownHostsFile "
                + dir.resolve("known_hosts")
                + "\n  StrictHostKeyChecking accept-new\n  LogLevel ERROR\n");
  }

  @AfterAll
  static void stopNode() throws Exception {
    Closing.closeEach(node, shared);
  }

  @AfterEach
  void stopAgents() {
    if (node != null) {
      Cli.run("agents", "stop", "--ssh", "node-nojava", "--ssh-config", sshConfig.toString());
    }
  }

  private Cli launch(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "agents",
                "launch",
                "--ssh",
                "node-nojava",
                "--root",
                shared.containerRoot(),
                "--port",
                "0",
                "--bind",
                "127.0.0.1",
                "--ssh-config",
                sshConfig.toString(),
                "--agent-jar",
                RepoFiles.agentJar().toString()));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(String[]::new));
  }

  private String onNode(String script) throws Exception {
    var r = node.container.execInContainer("sh", "-c", script);
    assertThat(r.getExitCode()).as("%s: %s", script, r.getStderr()).isZero();
    return r.getStdout();
  }

  @Test
  void aNodeWithoutJavaGetsTheTarballOnceAndRunsTheAgentOnItsRuntime() throws Exception {
    assertThat(node.container.execInContainer("sh", "-c", "command -v java").getExitCode())
        .as("java on the node")
        .isNotZero();
    Cli launched = launch();
    assertThat(launched.exitCode()).as(launched.err()).isZero();
    assertThat(launched.out()).contains("no Java 17 there: on the tarball's own runtime");
    Matcher m = AGENTS.matcher(launched.out());
    assertThat(m.find()).as("'agents:' line in %s", launched.out()).isTrue();
    String address = m.group(1);
    // one unpacked tarball, named by its content, nothing half-copied or half-unpacked
    assertThat(onNode("cd /root/.lockstep && ls -d lockstep-agent-* ; ls | grep -c part || true"))
        .matches("lockstep-agent-[0-9a-f]{12}\\n0\\n");
    assertThat(onNode("tr '\\0' ' ' </proc/$(cat /root/.lockstep/agent-*.pid)/cmdline"))
        .matches(
            "/root/\\.lockstep/lockstep-agent-[0-9a-f]{12}/usr/lib/lockstep-agent/runtime/bin/java"
                + " .*");
    String inode = onNode("stat -c %i /root/.lockstep/lockstep-agent-*");

    Path scenario =
        Files.writeString(
            work.resolve("s.yaml"),
            """
            name: ssh-tarball-write
            plan: [solo]
            workload: {type: write, file: "f.{node}", block-size: 64KiB, size: 4MiB}
            """);
    Cli run = Cli.run(Cli.runArgs(scenario, List.of(address), work.resolve("out")));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(ResultsStore.load(Cli.runJson(work.resolve("out"))).status())
        .isEqualTo(RunStatus.OK);

    Cli stopped =
        Cli.run("agents", "stop", "--ssh", "node-nojava", "--ssh-config", sshConfig.toString());
    assertThat(stopped.out()).contains("stopped agent pid");
    Cli again = launch();
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(onNode("stat -c %i /root/.lockstep/lockstep-agent-*"))
        .as("the unpacked tarball is used again, not replaced")
        .isEqualTo(inode);

    // A node whose java is 17 gets the jar: here --java names the unpacked runtime's.
    Cli.run("agents", "stop", "--ssh", "node-nojava", "--ssh-config", sshConfig.toString());
    String java =
        onNode("ls -d /root/.lockstep/lockstep-agent-*").strip()
            + "/usr/lib/lockstep-agent/runtime/bin/java";
    Cli withJava = launch("--java", java);
    assertThat(withJava.exitCode()).as(withJava.err()).isZero();
    assertThat(withJava.out()).doesNotContain("tarball's own runtime");
    assertThat(onNode("tr '\\0' ' ' </proc/$(cat /root/.lockstep/agent-*.pid)/cmdline"))
        .matches(
            java.replace(".", "\\.")
                + " -jar \\.lockstep/lockstep-agent-[0-9a-f]{12}\\.jar --listen .*");
  }

  @Test
  void aFileThatIsNoTarballFailsInOneLineAndLeavesNothing() throws Exception {
    Path notTarball = Files.writeString(work.resolve("lockstep-agent-x-linux-amd64.tar.gz"), "x");
    Cli launched = launch("--agent-tarball", notTarball.toString());
    assertThat(launched.exitCode()).isEqualTo(1);
    assertThat(launched.err().lines().toList()).hasSize(1);
    assertThat(launched.err())
        .contains("node-nojava", "cannot unpack the agent tarball in .lockstep: gzip:");
    assertThat(node.agentRunning()).isFalse();
    assertThat(onNode("ls /root/.lockstep | grep -c part || true")).isEqualTo("0\n");
  }
}

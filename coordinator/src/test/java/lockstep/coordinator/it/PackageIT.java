package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lockstep.common.ListeningLine;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.utility.MountableFile;

/**
 * The agent's .deb (dist/, -Pdist) on a Debian 12 node without Java that boots systemd, as an
 * administrator uses it, one step after the other: install, configure and start with mTLS, a run,
 * an upgrade refused during the run and done after it (the agent restarted on the new version),
 * remove, purge.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PackageIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  private static final String UNIT = "lockstep-agent.service";
  private static final String ROOT = "/srv/lockstep";
  private static final String NODE = "pkgnode";

  static Path deb;
  static DebianNode node;
  static Path work;
  static Path certs;
  static String installedVersion;
  static String newerVersion;

  @BeforeAll
  static void bootNode() throws Exception {
    if (!MACHINE.checkOnce(
        () -> {
          Requirements.docker();
          Requirements.image(DebianNode.image(), "scripts/ci/debian-image.sh builds it");
          deb = RepoFiles.agentDeb();
        })) {
      return;
    }
    work = Files.createTempDirectory("lockstep-package-it");
    Path nodes =
        Files.writeString(
            work.resolve("nodes.yaml"),
            "nodes:\n  - {name: " + NODE + ", address: 127.0.0.1:7070, root: " + ROOT + "}\n");
    certs = work.resolve("certs");
    Cli made = Cli.run("certs", "--inventory", nodes.toString(), "--out", certs.toString());
    assertThat(made.exitCode()).as(made.err()).isZero();
    node = DebianNode.boot(deb.getParent());
  }

  @AfterAll
  static void stopNode() throws Exception {
    Closing.closeEach(node);
  }

  @Test
  @Order(1)
  void installsOnANodeWithoutJavaWithItsUserAndDoesNotStart() throws Exception {
    assertThat(node.sh("command -v java").getExitCode()).as("java on the node").isNotZero();
    String out = node.ok("apt-get install -y " + DebianNode.PACKAGES + "/" + deb.getFileName());
    assertThat(out).contains("the service is not started");
    installedVersion = node.ok("dpkg-query -W -f '${Version}' lockstep-agent");
    assertThat(deb.getFileName().toString()).contains("_" + installedVersion + "_");
    assertThat(node.ok("lockstep-agent --version")).matches("lockstep-agent \\S+\\n");
    assertThat(node.ok("id -u lockstep; getent group lockstep | cut -d: -f3"))
        .isEqualTo("7070\n7070\n");
    assertThat(node.sh("systemctl is-enabled " + UNIT).getStdout()).isEqualTo("disabled\n");
    assertThat(node.sh("systemctl is-active " + UNIT).getStdout()).isEqualTo("inactive\n");
    assertThat(node.ok("stat -c '%U:%G %a' /etc/lockstep/tls")).isEqualTo("root:lockstep 750\n");
  }

  @Test
  @Order(2)
  void configuredAndStartedItAnswersOverMutualTls() throws Exception {
    for (String[] f :
        List.of(
            new String[] {"agent-" + NODE + ".pem", "agent.pem"},
            new String[] {"agent-" + NODE + "-key.pem", "agent-key.pem"},
            new String[] {"ca.pem", "ca.pem"})) {
      node.container.copyFileToContainer(
          MountableFile.forHostPath(certs.resolve(f[0])), "/etc/lockstep/tls/" + f[1]);
    }
    node.ok(
        "chown root:lockstep /etc/lockstep/tls/* && chmod 0640 /etc/lockstep/tls/agent-key.pem"
            + " && install -d -o lockstep -g lockstep -m 2775 "
            + ROOT
            // port 0: the agent picks a free loopback port and says which (host networking)
            + " && sed -i -e 's|^LOCKSTEP_ROOT=.*|LOCKSTEP_ROOT="
            + ROOT
            + "|' -e 's|^LOCKSTEP_LISTEN=.*|LOCKSTEP_LISTEN=127.0.0.1:0|'"
            + " -e 's|^#LOCKSTEP_NAME=.*|LOCKSTEP_NAME="
            + NODE
            + "|' /etc/lockstep/lockstep-agent.env"
            + " && sed -i 's|/mnt/cluster-fs/lockstep|"
            + ROOT
            + "|' /etc/systemd/system/lockstep-agent.service.d/10-root.conf"
            + " && systemctl daemon-reload && systemctl enable --now "
            + UNIT);
    Cli agents = Cli.run(tls("agents", "--agents", agentAddress()));
    assertThat(agents.exitCode()).as(agents.err()).isZero();
    assertThat(agents.out()).containsPattern("\\s" + NODE + "\\s").contains(ROOT);
  }

  @Test
  @Order(3)
  void anUpgradeWaitsForTheRunInProgressThenRestartsTheAgentOnTheNewVersion() throws Exception {
    // The newer package: this one repacked with a higher version, made before the run starts.
    node.ok(
        "cd /tmp && dpkg-deb -R "
            + DebianNode.PACKAGES
            + "/"
            + deb.getFileName()
            + " newer && sed -i 's/^Version: .*/&+it1/' newer/DEBIAN/control"
            + " && dpkg-deb -Zgzip -z1 --root-owner-group -b newer newer.deb >/dev/null"
            + " && rm -rf newer");
    newerVersion = node.ok("dpkg-deb -f /tmp/newer.deb Version").strip();
    assertThat(newerVersion).isEqualTo(installedVersion + "+it1");
    String pidBefore = mainPid();
    String address = agentAddress();

    Path scenario =
        Files.writeString(
            work.resolve("pp.yaml"),
            """
            name: package-upgrade
            plan: [solo]
            workload: {type: ping-pong, file: pp.dat, processes: 1, duration: 20s, warmup: 500ms}
            """);
    Path out = work.resolve("out");
    CompletableFuture<Cli> run =
        CompletableFuture.supplyAsync(
            () -> Cli.run(tls(Cli.runArgs(scenario, List.of(address), out))));
    // the step is under way once the agent wrote its run manifest
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(
            () ->
                node.sh("ls -A " + ROOT + "/.lockstep-runs." + NODE + " | grep -q .").getExitCode()
                    == 0);
    var refused = node.sh("apt-get install -y /tmp/newer.deb 2>&1");
    assertThat(refused.getExitCode()).isNotZero();
    assertThat(refused.getStdout()).contains("refusing to upgrade while a run is in progress");
    assertThat(node.ok("dpkg-query -W -f '${Version} ${Status}' lockstep-agent"))
        .isEqualTo(installedVersion + " install ok installed");
    assertThat(mainPid()).as("the agent was not stopped").isEqualTo(pidBefore);

    Cli done = run.get(120, TimeUnit.SECONDS);
    assertThat(done.exitCode()).as(done.err()).isZero();
    assertThat(ResultsStore.load(Cli.runJson(out)).status()).isEqualTo(RunStatus.OK);
    // the class-data archive the build made for the installed paths: the agent maps it (the JVM
    // refuses -Xshare:on with an archive that does not fit), and its workers use it instead of
    // dumping one of their own
    String jsa = "/usr/lib/lockstep-agent/lib/lockstep-agent.jsa";
    assertThat(node.ok("tr '\\0' ' ' < /proc/" + mainPid() + "/cmdline"))
        .contains("-XX:SharedArchiveFile=" + jsa);
    assertThat(
            node.ok(
                "/usr/lib/lockstep-agent/runtime/bin/java -Xshare:on -XX:SharedArchiveFile="
                    + jsa
                    + " -jar /usr/lib/lockstep-agent/lib/lockstep-agent.jar --version"))
        .contains("lockstep-agent ");
    assertThat(node.sh("ls /var/lib/lockstep/cds/worker-*.jsa").getExitCode())
        .as("no worker archive dumped on the node")
        .isNotZero();

    String upgraded = node.ok("apt-get install -y /tmp/newer.deb 2>&1");
    assertThat(upgraded).contains("stopped " + UNIT).contains("started " + UNIT + " again");
    assertThat(node.ok("dpkg-query -W -f '${Version}' lockstep-agent")).isEqualTo(newerVersion);
    assertThat(mainPid()).as("a new agent process").isNotEqualTo(pidBefore);
    Cli agents = Cli.run(tls("agents", "--agents", agentAddress()));
    assertThat(agents.exitCode()).as(agents.err()).isZero();
    assertThat(agents.out()).containsPattern("\\s" + NODE + "\\s");
  }

  @Test
  @Order(4)
  void removeStopsTheAgentAndKeepsItsSettingsAndCertificates() throws Exception {
    node.ok("apt-get remove -y lockstep-agent");
    assertThat(node.sh("systemctl is-active " + UNIT).getStdout()).isEqualTo("inactive\n");
    assertThat(node.ok("dpkg-query -W -f '${Status}' lockstep-agent"))
        .isEqualTo("deinstall ok config-files");
    assertThat(
            node.sh("test -e /usr/lib/lockstep-agent || test -e /usr/bin/lockstep-agent")
                .getExitCode())
        .as("the program is gone")
        .isNotZero();
    assertThat(node.ok("cat /etc/lockstep/lockstep-agent.env")).contains("LOCKSTEP_ROOT=" + ROOT);
    node.ok(
        "test -f /etc/lockstep/tls/agent.pem && test -f /etc/lockstep/tls/agent-key.pem"
            + " && test -f /etc/lockstep/tls/ca.pem"
            + " && grep -q '^ReadWritePaths="
            + ROOT
            + "$' /etc/systemd/system/lockstep-agent.service.d/10-root.conf");
  }

  @Test
  @Order(5)
  void purgeRemovesSettingsCertificatesAndStateButNotTheUser() throws Exception {
    node.ok("apt-get purge -y lockstep-agent");
    assertThat(node.sh("dpkg-query -W lockstep-agent").getExitCode()).isNotZero();
    for (String gone :
        List.of(
            "/etc/lockstep",
            "/etc/systemd/system/lockstep-agent.service.d",
            "/etc/systemd/system/multi-user.target.wants/lockstep-agent.service",
            "/var/lib/lockstep")) {
      assertThat(node.sh("test -e " + gone + " || test -L " + gone).getExitCode())
          .as(gone + " removed")
          .isNotZero();
    }
    assertThat(node.ok("id -u lockstep")).isEqualTo("7070\n");
  }

  private static String mainPid() throws Exception {
    return node.ok("systemctl show -p MainPID --value " + UNIT).strip();
  }

  /** The address the running agent's listening line (in its journal) names. */
  private static String agentAddress() throws Exception {
    String pid = mainPid();
    String[] line = new String[1];
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              line[0] =
                  node.sh("journalctl -o cat _PID=" + pid + " | grep -m1 'listening on'")
                      .getStdout();
              return ListeningLine.parse(line[0]).isPresent();
            });
    return ListeningLine.parse(line[0]).orElseThrow().address();
  }

  private static String[] tls(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--tls-ca",
            certs.resolve("ca.pem").toString(),
            "--tls-cert",
            certs.resolve("coordinator.pem").toString(),
            "--tls-key",
            certs.resolve("coordinator-key.pem").toString()));
    return all.toArray(String[]::new);
  }
}

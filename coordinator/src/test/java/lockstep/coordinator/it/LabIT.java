package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code lockstep lab}: two QEMU guests with real kernels, GFS2 and OCFS2 up at once, the agents
 * deployed by the project's Ansible playbook under its systemd unit with mTLS; {@code lockstep
 * agents} and one tiny scenario per file system through {@code lab run}; then {@code down} leaves
 * no QEMU, no namespace and no mount. Its own lab directory and namespace (not a user's lab).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabIT {
  private static final Required.Gate MACHINE = new Required.Gate();
  private static final Path DIR = Path.of("/var/tmp/lockstep-lab-it");
  private static boolean up;
  private static String namespace;

  /** Scenarios and results (not in the lab's directory, which down empties). */
  @org.junit.jupiter.api.io.TempDir static Path work;

  @BeforeAll
  static void machineCanRunTheLab() throws Exception {
    MACHINE.checkOnce(
        () -> {
          Required.root("the lab (network namespaces, QEMU)");
          Required.program("qemu-system-x86_64", "qemu-system-x86");
          Required.program("qemu-storage-daemon", "qemu-system-common");
          Required.program("qemu-img", "qemu-utils");
          Required.program("mmdebstrap", "mmdebstrap");
          Required.program("ansible-playbook", "ansible");
          Required.program("gcc", "gcc");
          Required.program("ssh", "openssh-client");
        });
  }

  @BeforeEach
  void gate() {
    MACHINE.eachTest();
  }

  @AfterAll
  static void down() {
    if (up) {
      lab("down");
    }
  }

  private static Cli lab(String... args) {
    String[] full = new String[args.length + 3];
    full[0] = "lab";
    System.arraycopy(args, 0, full, 1, args.length);
    full[args.length + 1] = "--dir";
    full[args.length + 2] = DIR.toString();
    return Cli.run(full);
  }

  @Test
  @Order(1)
  void badInputIsOneLineAndNonZero() {
    Cli r = lab("up", "nfs");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip()).isEqualTo("lockstep: unknown stack 'nfs' (known: gfs2, ocfs2)");
    r = lab("set", "plock_rate_limits=5");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("unknown key 'plock_rate_limits'");
    r = lab("run", "examples/ping-pong.yaml");
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip()).startsWith("lockstep: no lab is up in " + DIR);
    r = lab("down");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("nothing to remove");
  }

  @Test
  @Order(2)
  void bothStacksComeUpAndTheAgentsAnswerOverMutualTls() throws Exception {
    up = true;
    Cli r = lab("up", "gfs2", "ocfs2", "--disk-mbps", "20");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains(DIR.resolve("gfs2/inventory.yaml").toString());
    assertThat(r.out()).contains(DIR.resolve("ocfs2/inventory.yaml").toString());
    var m = java.util.regex.Pattern.compile("ip netns exec (\\S+)").matcher(r.out());
    assertThat(m.find()).as("up prints how to enter the namespace").isTrue();
    namespace = m.group(1);
    assertThat(run("ip", "netns", "pids", namespace)).isNotBlank();
    for (String stack : List.of("gfs2", "ocfs2")) {
      Cli a = lab("agents", "--stack", stack);
      assertThat(a.exitCode()).as("lab agents --stack %s", stack).isZero();
    }
  }

  @Test
  @Order(3)
  void aTinyScenarioRunsOnEachFileSystem() throws IOException {
    Path scenarios = Files.createDirectories(work.resolve("scenarios"));
    Path pingPong =
        Files.writeString(
            scenarios.resolve("gfs2-ping-pong.yaml"),
            "name: lab-gfs2-ping-pong\nplan: [all]\nworkload: {type: ping-pong, file:"
                + " ping-pong.dat, processes: 1, lock: fcntl, duration: 3s, warmup: 300ms}\n");
    Path write =
        Files.writeString(
            scenarios.resolve("ocfs2-write.yaml"),
            "name: lab-ocfs2-write\nplan: [all]\nworkload: {type: write, file: \"w.{node}\","
                + " block-size: 64KiB, size: 8MiB, fdatasync: true}\n");
    for (var c : List.of(List.of("gfs2", pingPong), List.of("ocfs2", write))) {
      String stack = (String) c.get(0);
      Path out = work.resolve("results-" + stack);
      Cli r = lab("run", "--stack", stack, c.get(1).toString(), "--out", out.toString());
      assertThat(r.exitCode()).as("lab run on %s", stack).isZero();
      RunRecord run = onlyRun(out);
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
  void downLeavesNothing() throws Exception {
    Cli r = lab("down");
    assertThat(r.exitCode()).as(r.err()).isZero();
    up = false;
    assertThat(run("pgrep", "-f", "process=lockstep-node")).isEmpty();
    assertThat(run("pgrep", "-f", "qemu-storage-daemon.*" + DIR)).isEmpty();
    assertThat(run("ip", "netns", "list")).doesNotContain(namespace);
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(DIR.toString());
    assertThat(Files.exists(DIR.resolve("state.json"))).isFalse();
    assertThat(lab("down").exitCode()).isZero();
  }

  private static RunRecord onlyRun(Path out) throws IOException {
    try (Stream<Path> s = Files.walk(out)) {
      List<Path> runs =
          s.filter(p -> p.getFileName().toString().equals(ResultsStore.RUN_FILE)).toList();
      assertThat(runs).hasSize(1);
      return ResultsStore.load(runs.get(0));
    }
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }
}

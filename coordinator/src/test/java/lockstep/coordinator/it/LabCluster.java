package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;

/**
 * The lab for integration tests: {@code lockstep lab} in its own directory (and so its own network
 * namespace), both stacks up. {@link #up()} is cheap when the lab is already up (stacks up are
 * skipped), so every test class that needs GFS2 or OCFS2 calls it in {@code @BeforeAll}; the lab
 * goes down when the test JVM exits (and .ci/run's teardown downs it whatever happens).
 */
final class LabCluster {
  static final Path DIR = Path.of("/var/tmp/lockstep-lab-it");
  private static final Pattern NAMESPACE = Pattern.compile("ip netns exec (\\S+)");
  private static boolean hooked;

  /** The namespace the lab's QEMUs run in, as {@code up} printed it. */
  final String namespace;

  private LabCluster(String namespace) {
    this.namespace = namespace;
  }

  /** What the machine needs for the lab: missing, the test fails under CI=true, else skips. */
  static void requireMachine() {
    Required.root("the lab (network namespaces, QEMU)");
    Required.program("qemu-system-x86_64", "qemu-system-x86");
    Required.program("qemu-storage-daemon", "qemu-system-common");
    Required.program("qemu-img", "qemu-utils");
    Required.program("mmdebstrap", "mmdebstrap");
    Required.program("ansible-playbook", "ansible");
    Required.program("gcc", "gcc");
    Required.program("ssh", "openssh-client");
  }

  /** Brings up GFS2 and OCFS2 (and the lab, unless it is up). */
  static synchronized LabCluster up() {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> lab("down")));
      hooked = true;
    }
    Cli r = lab("up", "gfs2", "ocfs2");
    assertThat(r.exitCode()).as("lab up: %s", r.err()).isZero();
    Matcher m = NAMESPACE.matcher(r.out());
    assertThat(m.find()).as("up prints how to enter the namespace").isTrue();
    return new LabCluster(m.group(1));
  }

  /** {@code lockstep lab ARGS --dir DIR}, in this JVM. */
  static Cli lab(String... args) {
    List<String> full = new ArrayList<>(List.of("lab"));
    full.addAll(List.of(args));
    full.addAll(List.of("--dir", DIR.toString()));
    return Cli.run(full.toArray(String[]::new));
  }

  /**
   * Runs the scenario on a stack through {@code lab run}, results under {@code work}; returns the
   * run (the command must succeed).
   */
  RunRecord run(String stack, String scenarioYaml, Path work, String... runOptions)
      throws IOException {
    Path dir = Files.createDirectories(work.resolve(stack + "-" + System.nanoTime()));
    Path scenario = Files.writeString(dir.resolve("scenario.yaml"), scenarioYaml);
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "--stack",
                stack,
                scenario.toString(),
                "--out",
                dir.resolve("results").toString()));
    args.addAll(List.of(runOptions));
    Cli r = lab(args.toArray(String[]::new));
    assertThat(r.exitCode()).as("lab run on %s", stack).isZero();
    try (Stream<Path> s = Files.walk(dir.resolve("results"))) {
      List<Path> runs =
          s.filter(p -> p.getFileName().toString().equals(ResultsStore.RUN_FILE)).toList();
      assertThat(runs).hasSize(1);
      return ResultsStore.load(runs.get(0));
    }
  }

  /** A command as root on node1 or node2 (peers: ping_pong, dd, lockbench, lock_files). */
  Cli ssh(String node, String... command) {
    List<String> args = new ArrayList<>(List.of("ssh", node));
    args.addAll(List.of(command));
    return lab(args.toArray(String[]::new));
  }
}

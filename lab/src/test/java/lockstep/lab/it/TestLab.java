package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.it.RepoFiles;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.testsupport.Required;

/**
 * The lab as a test class gets it from {@link LabFixture}: {@code lockstep lab} in its own
 * directory (and so its own network namespace), the stacks of the class's {@link OnLab} up; runs
 * through {@code lab run}, commands in the guests through {@code lab ssh}, settings through {@code
 * lab set} (the fixture sets them back after the class).
 */
final class TestLab {
  static final Path DIR = Path.of("/var/tmp/lockstep-lab-it");

  /** The namespace the lab's QEMUs run in. */
  final String namespace;

  /**
   * How many clients the lab has, node1..nodeN (a class may ask for fewer: it runs with --nodes); a
   * server node, if any, comes after them.
   */
  final int nodes;

  private final Map<RunRecord, Path> files = new IdentityHashMap<>();

  /** The run.json of a run this lab ran. */
  Path file(RunRecord run) {
    return files.get(run);
  }

  TestLab(String namespace, int nodes) {
    this.namespace = namespace;
    this.nodes = nodes;
  }

  /** node1..nodeK, as --nodes takes them: the first {@code k} nodes of the lab. */
  static String first(int k) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= k; i++) {
      names.add("node" + i);
    }
    return String.join(",", names);
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
    // the lab deploys the agent's .deb: without -Pdist (or CI=true) there is none, and the lab
    // tests skip as the container tests do, rather than failing in their first lab up
    try {
      RepoFiles.agentDeb();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    assertThat(r.exitCode()).as("lab run on %s: %s%s", stack, r.err(), tail(r.out(), 40)).isZero();
    try (Stream<Path> s = Files.walk(dir.resolve("results"))) {
      List<Path> runs =
          s.filter(p -> p.getFileName().toString().equals(ResultsStore.RUN_FILE)).toList();
      assertThat(runs).hasSize(1);
      RunRecord run = ResultsStore.load(runs.get(0));
      files.put(run, runs.get(0));
      return run;
    }
  }

  /** The last {@code lines} lines of a command's output: what says why it failed. */
  static String tail(String output, int lines) {
    List<String> all = output.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** A command as root on node1 or node2 (peers: ping_pong, dd, lockbench, lock_files). */
  Cli ssh(String node, String... command) {
    List<String> args = new ArrayList<>(List.of("ssh", node));
    args.addAll(List.of(command));
    return lab(args.toArray(String[]::new));
  }

  /**
   * A process on {@code node} that takes the fcntl lock on byte 0 of {@code file} (python3's
   * fcntl.lockf, the worker's call) and keeps it, in the background; returns once it holds it.
   */
  void holdByteZero(String node, String file) {
    must(
        node,
        "rm -f /root/peer-held; nohup python3 -c 'import fcntl, os, time; fd = os.open(\""
            + file
            + "\", os.O_RDWR | os.O_CREAT, 0o644); fcntl.lockf(fd, fcntl.LOCK_EX, 1, 0);"
            + " open(\"/root/peer-held\", \"w\").close(); time.sleep(900)'"
            + " > /dev/null 2>&1 < /dev/null & for i in $(seq 100); do [ -e /root/peer-held ] &&"
            + " exit 0; sleep 0.2; done; echo "
            + node
            + " did not take the lock >&2; exit 1");
  }

  /**
   * A waiter on {@code node} blocked in fcntl(F_SETLKW) on byte 0 of {@code file}, in the
   * background: it writes {@code granted SECONDS} (its wall clock) to {@code log} when it gets it.
   */
  void waitOnByteZero(String node, String file, String log) {
    must(
        node,
        "nohup python3 -c 'import fcntl, os, time; fd = os.open(\""
            + file
            + "\", os.O_RDWR); fcntl.lockf(fd, fcntl.LOCK_EX, 1, 0); print(\"granted %.6f\" %"
            + " time.time(), flush=True)' > "
            + log
            + " 2>&1 < /dev/null &");
  }

  /**
   * The workers' share of the step inside lock calls, as the run's analysis reads it (its agent's
   * telemetry); NaN when the node sent none, which fails any bound.
   */
  static double lockShare(NodeResult n) {
    Double share = n.resources() == null ? null : n.resources().lockWaitShare();
    return share == null ? Double.NaN : share;
  }

  /** {@link #ssh} that must succeed; its output. */
  String must(String node, String command) {
    Cli r = ssh(node, command);
    assertThat(r.exitCode()).as("lab ssh %s %s: %s", node, command, r.err()).isZero();
    return r.out();
  }

  /**
   * How {@code lab agents} probed each node's clock on {@code stack} ("udp" or "grpc"): the UDP
   * probe reaches an agent through the slirp forward on the dialed port.
   */
  static Map<String, String> clockProbes(String stack) {
    Cli r = lab("agents", "--stack", stack);
    assertThat(r.exitCode()).as("lab agents --stack %s: %s", stack, r.err()).isZero();
    Map<String, String> out = new TreeMap<>();
    r.out()
        .lines()
        .map(l -> l.trim().split("\\s+"))
        .filter(f -> f.length >= 9 && f[3].equals("yes"))
        .forEach(f -> out.put(f[1], f[7]));
    return out;
  }

  /** {@code lab set KEY=VALUE ...}, which must succeed. */
  static void set(String... changes) {
    List<String> args = new ArrayList<>(List.of("set"));
    args.addAll(List.of(changes));
    Cli r = lab(args.toArray(String[]::new));
    assertThat(r.exitCode()).as("lab set %s: %s", String.join(" ", changes), r.err()).isZero();
  }

  private static final Pattern DD = Pattern.compile("(\\d+) bytes .* copied, ([0-9.]+) s");
  private static final Pattern LOCKBENCH = Pattern.compile("ops_per_s ([0-9.]+)");
  private static final Pattern PING_PONG = Pattern.compile("(\\d+) locks/sec");

  /** dd's MB/s (10^6 bytes, as dd and Lockstep count) from its last "copied" line. */
  static double ddMBps(String output) {
    Matcher m = DD.matcher(output);
    double mbps = -1;
    while (m.find()) {
      mbps = Long.parseLong(m.group(1)) / 1e6 / Double.parseDouble(m.group(2));
    }
    assertThat(mbps).as("dd printed its figure: %s", output).isPositive();
    return mbps;
  }

  /** Each node's dd MB/s from {@code lab ssh all dd ...}'s output (lines "nodeN: ..."). */
  static Map<String, Double> ddMBpsByNode(String output) {
    Map<String, Double> out = new TreeMap<>();
    for (String node : List.of("node1", "node2")) {
      String mine =
          output.lines().filter(l -> l.startsWith(node + ": ")).collect(Collectors.joining("\n"));
      out.put(node, ddMBps(mine));
    }
    return out;
  }

  /** lockbench's ops/s (lock and unlock each one op). */
  static double lockbench(String output) {
    Matcher m = LOCKBENCH.matcher(output);
    assertThat(m.find()).as("lockbench printed its figure: %s", output).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /**
   * ping_pong's locks/s over its run: the mean of its once-a-second figures after the first (which
   * covers its start).
   */
  static double pingPong(String output) {
    Matcher m = PING_PONG.matcher(output);
    List<Double> each = new ArrayList<>();
    while (m.find()) {
      each.add(Double.parseDouble(m.group(1)));
    }
    assertThat(each).as("ping_pong printed its figures: %s", output).hasSizeGreaterThan(2);
    return each.subList(1, each.size()).stream()
        .mapToDouble(Double::doubleValue)
        .average()
        .orElseThrow();
  }
}

package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.it.RepoFiles;
import lockstep.coordinator.it.Signals;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ctrl-C during a booting {@code lab up}, in each of its phases (the guests booting, the stack
 * coming up, the agents' deploy): the up stops what it runs (QEMU's start, ssh, ansible-playbook),
 * removes everything it made within 15 s and exits 130: no process of the lab, no namespace, no
 * mount, no disk, no state. Then {@code down} has nothing to remove. Each up is a real process in a
 * lab directory of this class's own (not the fixture's lab), interrupted as a terminal would.
 */
class LabInterruptIT {
  private static final Path DIR = Path.of("/var/tmp/lockstep-lab-interrupt");
  private static final long BOUND_SECONDS = 15;

  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  @BeforeAll
  static void machine() throws Exception {
    if (MACHINE.checkOnce(TestLab::requireMachine)) {
      Cli.run("lab", "down", "--dir", DIR.toString());
    }
  }

  @AfterAll
  static void nothingLeft() {
    Cli.run("lab", "down", "--dir", DIR.toString());
  }

  @Test
  void ctrlCWhileTheGuestsBootRemovesEverything() throws Exception {
    interruptAt("QEMU started:");
  }

  @Test
  void ctrlCWhileTheStackComesUpRemovesEverything() throws Exception {
    interruptAt("bringing up gfs2 on");
  }

  @Test
  void ctrlCWhileTheAgentsAreDeployedRemovesEverything() throws Exception {
    interruptAt("deploying the agents");
  }

  /**
   * Starts {@code lab up gfs2} and sends SIGINT once it printed {@code marker} (the phase began),
   * then checks that it exits 130 within the bound having left nothing.
   */
  private static void interruptAt(String marker) throws Exception {
    Path root = RepoFiles.root();
    // SIGINT at its default disposition, as a terminal's shell starts a command: a test JVM started
    // in the background by a non-interactive shell (`.ci/run &`) ignores SIGINT, every process it
    // starts inherits that, and a JVM that starts with SIGINT ignored never sees Ctrl-C
    List<String> cmd =
        List.of(
            "env",
            "--default-signal=INT",
            "java",
            "-cp",
            root.resolve("coordinator/target/lockstep.jar")
                + ":"
                + root.resolve("lab/target/lockstep-lab.jar"),
            "lockstep.coordinator.cli.LockstepCli",
            "lab",
            "up",
            "gfs2",
            "--dir",
            DIR.toString());
    Process up = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    List<String> seen = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                  System.out.println("lab up: " + l);
                  lines.add(l);
                }
              } catch (IOException e) {
                // the process ended
              }
            });
    reader.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
      while (seen.stream().noneMatch(l -> l.contains(marker))) {
        String l = lines.poll(5, TimeUnit.SECONDS);
        if (l != null) {
          seen.add(l);
        }
        assertThat(up.isAlive() || l != null)
            .as("lab up ended before '%s': %s", marker, String.join("\n", seen))
            .isTrue();
        assertThat(System.nanoTime()).as("'%s' within 15 minutes", marker).isLessThan(deadline);
      }
      long t0 = System.nanoTime();
      Signals.send(up.pid(), "INT");
      assertThat(up.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
          .as("lab up ended within %d s of Ctrl-C", BOUND_SECONDS)
          .isTrue();
      double took = (System.nanoTime() - t0) / 1e9;
      reader.join(5000);
      lines.drainTo(seen);
      System.out.printf(
          Locale.ROOT, "Ctrl-C at '%s': exit %d after %.1f s%n", marker, up.exitValue(), took);
      assertThat(up.exitValue()).as("exit code").isEqualTo(130);
      assertThat(String.join("\n", seen)).contains("interrupted: removing what this `up` made");
      assertNothingLeft();
    } finally {
      if (up.isAlive()) {
        up.descendants().forEach(ProcessHandle::destroyForcibly);
        up.destroyForcibly();
      }
    }
  }

  private static void assertNothingLeft() throws Exception {
    assertThat(run("pgrep", "-f", DIR.toString())).as("processes of the lab").isBlank();
    assertThat(run("ip", "netns", "list")).as("namespaces").doesNotContain(namespace());
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(DIR.toString());
    try (Stream<Path> files = Files.exists(DIR) ? Files.list(DIR) : Stream.empty()) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("what is left in %s", DIR)
          .noneMatch(n -> n.endsWith(".img") || n.endsWith(".qcow2") || n.equals("state.json"))
          .noneMatch(n -> n.endsWith(".qmp") || n.endsWith(".nbd") || n.equals("certs"));
    }
    Cli again = Cli.run("lab", "down", "--dir", DIR.toString());
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("nothing to remove");
  }

  /** The lab's namespace: lockstep-lab-HASH of its directory, as `lab up` names it. */
  private static String namespace() {
    return "lockstep-lab-"
        + Integer.toHexString(DIR.toAbsolutePath().normalize().toString().hashCode() & 0xfffffff);
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }
}

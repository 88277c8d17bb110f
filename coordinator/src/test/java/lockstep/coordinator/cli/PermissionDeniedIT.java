package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.it.Cli;
import lockstep.coordinator.local.LocalAgents;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real EACCES on one node. Root ignores permission bits, so node2's agent runs as root without
 * CAP_DAC_OVERRIDE (setpriv drops it from the bounding set): a root it may not write in then fails
 * its Prepare with EACCES (the run's manifest, or the run's own directory), and the other node is
 * aborted and cleaned.
 */
class PermissionDeniedIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  @TempDir static Path tmp;

  private static LocalAgents agents;

  @BeforeAll
  static void startAgents() throws Exception {
    if (!MACHINE.checkOnce(
        () -> {
          Required.root("PermissionDeniedIT (an agent without CAP_DAC_OVERRIDE)");
          Required.program("/usr/bin/setpriv", "util-linux");
        })) {
      return;
    }
    List<LocalAgents.Node> nodes = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Path r = Files.createDirectories(tmp.resolve("node" + i));
      List<String> prefix =
          i == 2
              ? List.of(
                  "/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--")
              : List.of();
      nodes.add(new LocalAgents.Node("node" + i, r, tmp.resolve("node" + i + ".log"), prefix));
    }
    agents = LocalAgents.start(nodes);
  }

  @AfterAll
  static void stopAgents() {
    if (agents != null) {
      agents.close();
    }
  }

  record Outcome(int code, String out, String err) {}

  private Outcome run(String name, String workload) throws Exception {
    Path scenario =
        Files.writeString(
            tmp.resolve(name + ".yaml"),
            "name: " + name + "\nplan: [all]\nworkload: " + workload + "\n");
    Cli cli = Cli.run(Cli.runArgs(scenario, agents.addresses(), tmp.resolve("results-" + name)));
    return new Outcome(cli.exitCode(), cli.out(), cli.err());
  }

  /**
   * Takes write permission from node2's root (node2 has no CAP_DAC_OVERRIDE to ignore it); returns
   * the root.
   */
  private static Path readOnlyRoot() throws Exception {
    Path root = tmp.resolve("node2");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("r-xr-xr-x"));
    return root;
  }

  private static void writable(Path root) throws Exception {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static List<Path> under(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> !p.equals(root)).toList();
    }
  }

  @Test
  void aRootNode2MayNotWriteInFailsItsPrepareWithEaccesAtTheManifestAndNode1IsCleaned()
      throws Exception {
    Path root = readOnlyRoot();
    try {
      Outcome o = run("eacces-write", "{type: write, file: 'testFile.{node}', size: 4MiB}");
      assertThat(o.code()).isEqualTo(1);
      assertThat(o.err())
          .contains(
              "lockstep: node node2: prepare: prepare failed: cannot write the run's manifest under"
                  + " "
                  + root.toRealPath().resolve(".lockstep-runs.node2"))
          .contains("EACCES")
          .doesNotContain("Exception");
      assertThat(under(tmp.resolve("node1"))).as("node1 cleaned up").isEmpty();
      assertThat(under(root)).as("node2's root is left as it was").isEmpty();
    } finally {
      writable(root);
    }
  }

  @Test
  void aRunDirectoryNode2MayNotMakeFailsItsLockFilesPrepareWithEaccesAndNode1IsCleaned()
      throws Exception {
    // the manifest directory may be written, the root not: the manifest is written, the run's
    // own directory lockstep-RUN.STEP cannot be made
    Path manifests = Files.createDirectories(tmp.resolve("node2/.lockstep-runs.node2"));
    Path root = readOnlyRoot();
    try {
      Outcome o =
          run(
              "eacces-locks",
              "{type: lock-files, dir: 'locked.{node}', processes: 2, files: 3000, lock: fcntl}");
      assertThat(o.code()).isEqualTo(1);
      assertThat(o.err())
          .containsPattern(
              "lockstep: node node2: prepare: prepare failed: \\S+"
                  + " lockstep-\\S+-eacces-locks-\\S+\\.all: EACCES")
          .doesNotContain("Exception");
      assertThat(under(tmp.resolve("node1"))).as("node1 aborted and cleaned up").isEmpty();
      // the manifest is gone with its run; its (empty) directory stays, as the root is read-only
      assertThat(under(root))
          .as("node2's manifest is gone with its run")
          .containsExactly(manifests);
    } finally {
      writable(root);
      Files.delete(manifests);
    }
  }
}

package lockstep.coordinator.cli;

import lockstep.coordinator.it.Cli;
import static org.assertj.core.api.Assertions.assertThat;






import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.local.LocalAgents;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/**
 * A real EACCES on one node. Root ignores permission bits, so node2's agent runs as root
 * without CAP_DAC_OVERRIDE (setpriv drops it from the bounding set): a read-only file in its
 * way then fails open(2) with EACCES, in the agent and in its worker processes alike.
 */
class PermissionDeniedIT {
    @TempDir
    static Path tmp;

    private static LocalAgents agents;

    @BeforeAll
    static void startAgents() throws Exception {
        Required.root("PermissionDeniedIT (an agent without CAP_DAC_OVERRIDE)");
        Required.program("/usr/bin/setpriv", "util-linux");
        List<LocalAgents.Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Path r = Files.createDirectories(tmp.resolve("node" + i));
            List<String> prefix = i == 2
                    ? List.of("/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--")
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

    record Outcome(int code, String out, String err) {
    }

    private Outcome run(String name, String workload) throws Exception {
        Path scenario = Files.writeString(tmp.resolve(name + ".yaml"), "name: " + name + "\nplan: [all]\nworkload: " + workload + "\n");
        Cli cli = Cli.run("run", scenario.toString(), "--agents", String.join(",", agents.addresses()),
                "--out", tmp.resolve("results-" + name).toString());
        return new Outcome(cli.exitCode(), cli.out(), cli.err());
    }

    /** A directory of the user's that node2 (no CAP_DAC_OVERRIDE) may not create files in. */
    private static Path readOnlyDir(Path p) throws Exception {
        Files.createDirectories(p);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r-xr-xr-x"));
        return p;
    }

    private static List<Path> under(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).toList();
        }
    }

    @Test
    void aDirectoryNode2MayNotWriteInFailsThePrepareWithEacces() throws Exception {
        Path blocker = readOnlyDir(tmp.resolve("node2/ro"));
        try {
            Outcome o = run("eacces-write", "{type: write, file: 'ro/testFile.{node}', size: 4MiB}");
            assertThat(o.code()).isEqualTo(1);
            assertThat(o.err()).contains("lockstep: node node2: prepare: ").contains("open ro/testFile.node2: EACCES")
                    .doesNotContain("Exception");
            assertThat(under(tmp.resolve("node1"))).as("node1 cleaned up").isEmpty();
            assertThat(under(tmp.resolve("node2"))).as("the user's directory is left as it was").containsExactly(blocker);
        } finally {
            Files.delete(blocker);
        }
    }

    @Test
    void aLockFilesDirectoryNode2MayNotWriteInFailsNode2sWorkersAtPrepareAndNode1IsCleaned() throws Exception {
        // prepare finds the (empty) directory and starts the workers; each worker exercises its
        // measured path on scratch files before it reports ready, so the EACCES is met there,
        // inside a worker process, before any node starts
        Path blocker = readOnlyDir(tmp.resolve("node2/locked.node2"));
        try {
            Outcome o = run("eacces-locks", "{type: lock-files, dir: 'locked.{node}', processes: 2, files: 3000, lock: fcntl}");
            assertThat(o.code()).isEqualTo(1);
            assertThat(o.err()).contains("lockstep: node node2: prepare: prepare failed: open locked.node2/.warmup-test-")
                    .contains(": EACCES (Permission denied)").doesNotContain("Exception");
            assertThat(under(tmp.resolve("node1"))).as("node1 aborted and cleaned up").isEmpty();
            assertThat(under(tmp.resolve("node2"))).containsExactly(blocker);
        } finally {
            Files.delete(blocker);
        }
    }
}

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

    private static Path readOnlyFile(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "the user's file\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--------"));
        return p;
    }

    private static List<Path> under(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> !p.equals(root)).toList();
        }
    }

    @Test
    void aFileNode2MayNotWriteFailsThePrepareWithEacces() throws Exception {
        Path blocker = readOnlyFile(tmp.resolve("node2/testFile.node2"));
        try {
            Outcome o = run("eacces-write", "{type: write, file: 'testFile.{node}', size: 4MiB}");
            assertThat(o.code()).isEqualTo(1);
            assertThat(o.err()).contains("lockstep: node node2: prepare: ").contains("open testFile.node2: EACCES")
                    .doesNotContain("Exception");
            assertThat(under(tmp.resolve("node1"))).as("node1 cleaned up").isEmpty();
            assertThat(Files.readString(blocker)).as("the user's file is untouched").isEqualTo("the user's file\n");
        } finally {
            Files.delete(blocker);
        }
    }

    @Test
    void aLockedOutFileMidRunFailsNode2WithEaccesAndAbortsNode1() throws Exception {
        Path blocker = readOnlyFile(tmp.resolve("node2/lock-files.node2/test-0-10"));
        try {
            Outcome o = run("eacces-locks", "{type: lock-files, processes: 2, files: 3000, lock: fcntl}");
            assertThat(o.code()).isEqualTo(1);
            assertThat(o.err()).contains("lockstep: node node2: failed: open lock-files.node2/test-0-10 failed after 10 files: EACCES");
            assertThat(under(tmp.resolve("node1"))).as("node1 cleaned up").isEmpty();
            assertThat(under(tmp.resolve("node2"))).containsExactlyInAnyOrder(blocker.getParent(), blocker);
        } finally {
            Files.delete(blocker);
            Files.delete(blocker.getParent());
        }
    }
}

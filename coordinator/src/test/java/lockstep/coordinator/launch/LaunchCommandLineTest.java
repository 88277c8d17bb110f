package lockstep.coordinator.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.it.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to {@code agents launch/stop} and {@code --inventory}: one line, exit 2, no ssh
 * started.
 */
class LaunchCommandLineTest {
  @TempDir Path dir;

  private String run(int expectedExit, String... args) {
    Cli cli = Cli.run(args);
    assertThat(cli.exitCode()).as(cli.err()).isEqualTo(expectedExit);
    return cli.err();
  }

  @Test
  void usageErrorsAreOneLine() throws Exception {
    assertThat(run(2, "agents", "launch", "--root", "/x"))
        .isEqualTo("lockstep: give --ssh [USER@]HOST,... or --inventory FILE (one of them)\n");
    assertThat(run(2, "agents", "launch", "--ssh", "a,a", "--root", "/x"))
        .isEqualTo("lockstep: --ssh: 'a' is listed twice\n");
    assertThat(run(2, "agents", "launch", "--ssh", "-oProxyCommand=x", "--root", "/x"))
        .contains("is not [USER@]HOST");
    assertThat(run(2, "agents", "launch", "--ssh", "a")).contains("--root: give the agents' root");
    assertThat(
            run(
                2,
                "agents",
                "launch",
                "--ssh",
                "a",
                "--root",
                "/x",
                "--agent-jar",
                dir.resolve("none.jar").toString()))
        .contains("--agent-jar")
        .contains("is not a file");
    assertThat(
            run(
                2,
                "agents",
                "launch",
                "--ssh",
                "a",
                "--root",
                "/x",
                "--agent-tarball",
                dir.resolve("none.tar.gz").toString()))
        .contains("--agent-tarball")
        .contains("is not a file");
    assertThat(run(2, "agents", "stop")).contains("give --ssh");
    assertThat(run(2, "agents"))
        .isEqualTo("lockstep: give --agents HOST:PORT,... or --inventory FILE\n");
    Path inv =
        Files.writeString(
            dir.resolve("inv.yaml"), "nodes:\n  - {name: a, address: h:1, root: rel}\n");
    assertThat(run(2, "agents", "--inventory", inv.toString()))
        .contains("nodes[0].root: 'rel' must be an absolute path");
    assertThat(run(2, "agents", "--agents", "h:1", "--inventory", inv.toString()))
        .contains("not both");
  }

  @Test
  void remoteValuesAreQuotedForSh() {
    assertThat(RemoteScripts.quote("a b'c")).isEqualTo("'a b'\\''c'");
  }

  @Test
  void nodeNamesComeFromTheHostAsWritten() {
    assertThat(new SshTarget("admin@orca.example.net").defaultNodeName()).isEqualTo("orca");
    assertThat(new SshTarget("node-a").defaultNodeName()).isEqualTo("node-a");
    assertThat(new SshTarget("root@10.0.0.5").defaultNodeName()).isNull();
  }
}

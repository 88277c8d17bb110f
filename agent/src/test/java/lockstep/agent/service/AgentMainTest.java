package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's command line as a process: start-up failures are one line and an exit code. */
class AgentMainTest {
  @TempDir Path root;

  /** The agent started with {@code args} fails to start: its exit code and stderr's lines. */
  private record Failed(int exitCode, List<String> lines, String stderr) {}

  private static Failed start(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AgentMain.class.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Failed(p.exitValue(), stderr.lines().filter(l -> !l.isBlank()).toList(), stderr);
  }

  @Test
  void aPortAlreadyInUseIsOneLineAndExitTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String listen = "127.0.0.1:" + taken.getLocalPort();
      Failed f = start("--listen", listen, "--root", root.toString(), "--name", "n1");
      assertThat(f.exitCode()).as(f.stderr()).isEqualTo(2);
      assertThat(f.lines())
          .as(f.stderr())
          .containsExactly(
              "lockstep-agent: --listen "
                  + listen
                  + ": cannot listen: Address already in use (another process holds it; pick"
                  + " another port, or port 0 for a free one)");
    }
  }

  @Test
  void theSameRootTwiceIsOneLineAndExitTwo() throws Exception {
    Path link = Files.createSymbolicLink(root.resolve("again"), root);
    Failed f =
        start(
            "--listen",
            "127.0.0.1:0",
            "--root",
            root.toString(),
            "--root",
            link.toString(),
            "--name",
            "n1");
    assertThat(f.exitCode()).as(f.stderr()).isEqualTo(2);
    assertThat(f.lines())
        .as(f.stderr())
        .containsExactly(
            "lockstep-agent: --root: " + link + " is given twice (as " + root.toRealPath() + ")");
  }
}

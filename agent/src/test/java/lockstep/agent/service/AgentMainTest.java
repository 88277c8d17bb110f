package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's command line as a process: start-up failures are one line and an exit code. */
class AgentMainTest {
  @TempDir Path root;

  @Test
  void aPortAlreadyInUseIsOneLineAndExitTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String listen = "127.0.0.1:" + taken.getLocalPort();
      AgentProcess.Exit e =
          AgentProcess.run("--listen", listen, "--root", root.toString(), "--name", "n1");
      assertThat(e.code()).as(e.err()).isEqualTo(2);
      assertThat(e.errLines())
          .as(e.err())
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
    AgentProcess.Exit e =
        AgentProcess.run(
            "--listen",
            "127.0.0.1:0",
            "--root",
            root.toString(),
            "--root",
            link.toString(),
            "--name",
            "n1");
    assertThat(e.code()).as(e.err()).isEqualTo(2);
    assertThat(e.errLines())
        .as(e.err())
        .containsExactly(
            "lockstep-agent: --root: " + link + " is given twice (as " + root.toRealPath() + ")");
  }
}

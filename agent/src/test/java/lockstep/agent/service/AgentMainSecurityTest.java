package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent as a process: what it refuses to listen on, in one line and exit 2. */
class AgentMainSecurityTest {
  @TempDir Path root;

  /** The agent on 127.0.0.1, port 0, with the root and {@code flags}. */
  private AgentProcess.Exit onLoopback(String... flags) throws IOException, InterruptedException {
    List<String> args =
        new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--root", root.toString()));
    args.addAll(List.of(flags));
    return AgentProcess.run(args.toArray(String[]::new));
  }

  @Test
  void aNonLoopbackListenerWithoutTlsOrTokenIsRefusedInOneLine() throws Exception {
    AgentProcess.Exit e =
        AgentProcess.run("--listen", "0.0.0.0:0", "--root", root.toString(), "--name", "n1");
    assertThat(e.code()).isEqualTo(2);
    assertThat(e.err().lines().toList()).hasSize(1);
    assertThat(e.err())
        .contains("--listen: 0.0.0.0 is not a loopback address")
        .contains("--insecure");
    assertThat(e.out()).doesNotContain("listening on");
  }

  @Test
  void badSecurityFlagsNameTheFlag() throws Exception {
    Files.writeString(root.resolve("short-token"), "abc\n");
    AgentProcess.Exit shortToken =
        onLoopback("--token-file", root.resolve("short-token").toString());
    assertThat(shortToken.code()).isEqualTo(2);
    assertThat(shortToken.err().lines().toList())
        .singleElement()
        .asString()
        .contains("--token-file")
        .contains("at least 16");

    AgentProcess.Exit halfTls = onLoopback("--tls-cert", root.resolve("short-token").toString());
    assertThat(halfTls.code()).isEqualTo(2);
    assertThat(halfTls.err()).contains("--tls-cert and --tls-key go together");

    AgentProcess.Exit missing =
        onLoopback(
            "--tls-cert",
            "/nonexistent/a.pem",
            "--tls-key",
            "/nonexistent/a-key.pem",
            "--tls-client-ca",
            "/nonexistent/ca.pem");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("--tls-cert: /nonexistent/a.pem is not a readable file");
  }
}

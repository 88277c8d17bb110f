package lockstep.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.security.AgentSecurity;
import lockstep.coordinator.certs.CertificateAuthority;
import lockstep.coordinator.it.Cli;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 goal 5: a coordinator the agent refuses (plaintext to TLS, TLS without a client
 * certificate, a certificate or CA of another authority, TLS to a plaintext agent, no or a wrong
 * token) gets one line naming the cause and the flag that fixes it, exit 1, no stack trace. Real
 * Netty agents on 127.0.0.1 with certificates from the project's own {@link CertificateAuthority},
 * driven through the CLI ({@code lockstep run}).
 */
class RefusalsTest {
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path dir;
  @TempDir Path roots;
  private SecuredAgents agents;
  private Path caPem;
  private Path rogueCaPem;

  @BeforeEach
  void certificates() throws Exception {
    agents = new SecuredAgents(dir, roots);
    caPem = agents.caPem;
    rogueCaPem = agents.rogueCaPem;
    agents.write("localhost-only", agents.ca.agent("n1", List.of("localhost")));
    Files.writeString(dir.resolve("token"), TOKEN + "\n");
    Files.writeString(dir.resolve("wrong-token"), "not-the-agents-token-0000\n");
  }

  @AfterEach
  void stop() {
    agents.close();
  }

  private String[] as(String who) {
    return new String[] {
      "--tls-ca",
      caPem.toString(),
      "--tls-cert",
      dir.resolve(who + ".pem").toString(),
      "--tls-key",
      dir.resolve(who + "-key.pem").toString()
    };
  }

  /**
   * {@code lockstep run SCENARIO --agents ADDRESS FLAGS...}: exit 1, nothing saved, and the one
   * line it printed.
   */
  private String refused(String address, String... flags) throws Exception {
    Path scenario =
        Files.writeString(
            dir.resolve("s.yaml"), "name: refused\nworkload: {type: write, size: 1MiB}\n");
    Path out = dir.resolve("results");
    List<String> args =
        new ArrayList<>(
            List.of("run", scenario.toString(), "--agents", address, "--out", out.toString()));
    args.addAll(List.of(flags));
    Cli cli = Cli.run(args.toArray(String[]::new));
    assertThat(cli.exitCode()).as(cli.err()).isEqualTo(1);
    assertThat(out).doesNotExist();
    assertThat(roots.resolve("n1")).isEmptyDirectory();
    assertThat(cli.err().lines()).as(cli.err()).hasSize(1);
    String line = cli.err().strip();
    assertThat(line)
        .startsWith("lockstep: agent " + address)
        .doesNotContain("Exception", "\tat ", "unreachable", "unknown reason");
    return line;
  }

  @Test
  void plaintextToATlsAgentSaysItRequiresTlsAndNamesTheFlags() throws Exception {
    String address = agents.start(agents.mtls());
    assertThat(refused(address))
        .contains("requires TLS", "connected in plaintext", "--tls-ca", "--tls-cert");
  }

  @Test
  void plaintextWithATokenToATlsAndTokenAgentSaysItRequiresTls() throws Exception {
    String address =
        agents.start(
            new AgentSecurity(
                dir.resolve("agent.pem"), dir.resolve("agent-key.pem"), null, TOKEN, false));
    assertThat(refused(address, "--token-file", dir.resolve("token").toString()))
        .contains("requires TLS", "--tls-ca");
  }

  @Test
  void tlsWithOnlyTheCaToAnMtlsAgentSaysAClientCertificateIsRequired() throws Exception {
    String address = agents.start(agents.mtls());
    assertThat(refused(address, "--tls-ca", caPem.toString()))
        .contains("requires a client certificate", "--tls-cert", "--tls-key");
  }

  @Test
  void aCoordinatorCertificateOfAnotherCaIsNamedAsNotSignedByTheAgentsCa() throws Exception {
    String address = agents.start(agents.mtls());
    assertThat(refused(address, as("mallory")))
        .contains(
            "refused this coordinator's certificate (--tls-cert " + dir.resolve("mallory.pem"),
            "--tls-client-ca",
            "--add-coordinator");
  }

  @Test
  void aWrongCaSaysTheAgentsCertificateIsNotSignedByIt() throws Exception {
    String address = agents.start(agents.mtls());
    String[] flags = as("alice");
    flags[1] = rogueCaPem.toString();
    assertThat(refused(address, flags))
        .contains("certificate is not signed by the CA in --tls-ca " + rogueCaPem, "ca.pem");
  }

  @Test
  void anAgentCertificateWithoutTheDialledHostIsNamed() throws Exception {
    String address =
        agents.start(
            new AgentSecurity(
                dir.resolve("localhost-only.pem"),
                dir.resolve("localhost-only-key.pem"),
                caPem,
                null,
                false));
    assertThat(refused(address, as("alice")))
        .contains("does not name the host dialled", "127.0.0.1");
  }

  @Test
  void tlsToAPlaintextAgentSaysItDoesNotSpeakTls() throws Exception {
    String address = agents.start(AgentSecurity.NONE);
    assertThat(refused(address, as("alice")))
        .contains("does not speak TLS", "drop --tls-ca/--tls-cert/--tls-key");
  }

  @Test
  void noTokenAndAWrongTokenAreToldApart() throws Exception {
    String address = agents.start(new AgentSecurity(null, null, null, TOKEN, false));
    assertThat(refused(address)).contains("requires a bearer token", "--token-file");
    assertThat(refused(address, "--token-file", dir.resolve("wrong-token").toString()))
        .contains("refused the bearer token", "--token-file");
  }
}

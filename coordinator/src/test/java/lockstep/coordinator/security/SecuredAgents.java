package lockstep.coordinator.security;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.security.AgentSecurity;
import lockstep.agent.service.AgentCredentials;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.certs.CertificateAuthority;
import lockstep.coordinator.certs.PemFiles;
import lockstep.testsupport.InProcessCluster;

/**
 * The security tests' set-up: a test CA whose certificate and the certificates issued from it are
 * PEM files in one directory ({@code ca.pem}, {@code NAME.pem} and {@code NAME-key.pem}): the
 * agent's own (n1, 127.0.0.1, localhost), coordinator alice's, and mallory's, a coordinator
 * certificate named alice from a rogue CA ({@code rogue-ca.pem}); and real agents (Netty on
 * 127.0.0.1, port 0) started with a given security, all stopped by {@link #close}.
 */
final class SecuredAgents implements AutoCloseable {
  final CertificateAuthority ca;
  final Path caPem;
  final Path rogueCaPem;
  private final Path dir;
  private final Path roots;
  private final List<InProcessCluster<AgentServer>> clusters = new ArrayList<>();

  SecuredAgents(Path dir, Path roots) throws Exception {
    this.dir = dir;
    this.roots = roots;
    ca = CertificateAuthority.create("test CA");
    caPem = dir.resolve("ca.pem");
    PemFiles.writeCertificate(caPem, ca.certificate());
    write("agent", ca.agent("n1", List.of("n1", "127.0.0.1", "localhost")));
    write("alice", ca.coordinator("alice"));
    CertificateAuthority rogue = CertificateAuthority.create("rogue CA");
    rogueCaPem = dir.resolve("rogue-ca.pem");
    PemFiles.writeCertificate(rogueCaPem, rogue.certificate());
    write("mallory", rogue.coordinator("alice"));
  }

  /** Writes NAME.pem and NAME-key.pem. */
  void write(String name, CertificateAuthority.Issued issued) throws Exception {
    PemFiles.writeCertificate(dir.resolve(name + ".pem"), issued.certificate());
    PemFiles.writeKey(dir.resolve(name + "-key.pem"), issued.keys().getPrivate());
  }

  /** The agent's certificate; callers need a certificate from the test CA (mTLS). */
  AgentSecurity mtls() {
    return new AgentSecurity(
        dir.resolve("agent.pem"), dir.resolve("agent-key.pem"), caPem, null, false);
  }

  /** Starts an agent with {@code security}; its address. */
  String start(AgentSecurity security) throws Exception {
    InProcessCluster<AgentServer> c =
        InProcessCluster.of(AgentMembers.secured(security))
            .under(roots)
            .credentials(AgentCredentials.of(security))
            .start();
    clusters.add(c);
    return c.member(0).address();
  }

  @Override
  public void close() {
    clusters.forEach(InProcessCluster::close);
  }
}

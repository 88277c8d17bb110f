package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import lockstep.coordinator.certs.PemFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lockstep certs}: a CA, an agent certificate per node with its names, a coordinator
 * certificate; no overwrite.
 */
class CertsCommandTest {
  @TempDir Path tmp;

  private int run(StringWriter err, String... args) {
    CommandLine cmd = LockstepCli.commandLine();
    cmd.setErr(new PrintWriter(err, true));
    return cmd.execute(args);
  }

  private static final String N1 = "  - {name: n1, address: '127.0.0.1:7070', root: /r}\n";

  /** nodes.yaml listing {@code nodes} (inventory lines). */
  private Path inventory(String nodes) throws IOException {
    return Files.writeString(tmp.resolve("nodes.yaml"), "nodes:\n" + nodes);
  }

  /** {@code lockstep certs --inventory INV --out DIR}, which succeeds; DIR. */
  private Path certs(Path inv) {
    Path out = tmp.resolve("certs");
    assertThat(
            run(
                new StringWriter(),
                "certs",
                "--inventory",
                inv.toString(),
                "--out",
                out.toString()))
        .isZero();
    return out;
  }

  private static X509Certificate load(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  @Test
  void makesSignedCertificatesWithTheNodesNamesAndNeverOverwrites() throws Exception {
    Path inv =
        inventory(
            "  - {name: orca, address: 'orca.example.net:7070', root: /r}\n"
                + "  - {name: n2, address: '127.0.0.2:7070', root: /r}\n");
    Path out = certs(inv);

    X509Certificate ca = load(out.resolve("ca.pem"));
    X509Certificate orca = load(out.resolve("agent-orca.pem"));
    orca.verify(ca.getPublicKey());
    load(out.resolve("coordinator.pem")).verify(ca.getPublicKey());
    assertThat(
            orca.getSubjectAlternativeNames().stream().map(l -> String.valueOf(l.get(1))).toList())
        .containsExactly("orca", "orca.example.net");
    // type 7 = IP address
    assertThat(
            load(out.resolve("agent-n2.pem")).getSubjectAlternativeNames().stream()
                .map(l -> l.get(0) + ":" + l.get(1))
                .toList())
        .containsExactly("2:n2", "7:127.0.0.2");
    assertThat(orca.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(load(out.resolve("coordinator.pem")).getExtendedKeyUsage())
        .containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(out.resolve("agent-orca-key.pem"))))
        .isEqualTo("rw-------");
    assertThat(Files.readString(out.resolve("coordinator-key.pem")))
        .startsWith("-----BEGIN PRIVATE KEY-----");

    byte[] before = Files.readAllBytes(out.resolve("ca.pem"));
    StringWriter err = new StringWriter();
    assertThat(run(err, "certs", "--inventory", inv.toString(), "--out", out.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("already exists").contains("never overwrites");
    assertThat(Files.readAllBytes(out.resolve("ca.pem"))).isEqualTo(before);
  }

  @Test
  void addsAnotherCoordinatorCertificateFromTheSameCaAndRefusesWithoutOne() throws Exception {
    Path inv = inventory(N1);
    Path out = tmp.resolve("certs");
    StringWriter err = new StringWriter();
    assertThat(run(err, "certs", "--add-coordinator", "alice", "--out", out.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("ca.pem is not a readable file");
    certs(inv);

    assertThat(
            run(new StringWriter(), "certs", "--add-coordinator", "alice", "--out", out.toString()))
        .isZero();
    X509Certificate alice = load(out.resolve("coordinator-alice.pem"));
    alice.verify(load(out.resolve("ca.pem")).getPublicKey());
    assertThat(alice.getSubjectX500Principal().getName()).contains("CN=alice");
    assertThat(alice.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(out.resolve("coordinator-alice-key.pem"))))
        .isEqualTo("rw-------");

    err = new StringWriter();
    assertThat(run(err, "certs", "--add-coordinator", "alice", "--out", out.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("coordinator-alice.pem already exists");
    err = new StringWriter();
    assertThat(run(err, "certs", "--add-coordinator", "../x", "--out", out.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--add-coordinator: '../x' is not a plain name");
    err = new StringWriter();
    assertThat(
            run(
                err,
                "certs",
                "--add-coordinator",
                "bob",
                "--inventory",
                inv.toString(),
                "--out",
                out.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("not both or neither");
  }

  @Test
  void aCaKeyThatIsNotAPemKeyIsOneLineAndIssuesNothing() throws Exception {
    Path inv = inventory(N1);
    Path out = certs(inv);
    Path key = out.resolve("ca-key.pem");
    for (String broken :
        List.of(
            "-----BEGIN PRIVATE KEY-----\n%%%% not base64 %%%%\n-----END PRIVATE KEY-----\n",
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            "no PEM here\n",
            Files.readString(out.resolve("ca.pem")),
            keyPem("RSA"),
            keyPem("EC"))) {
      Files.writeString(key, broken);
      StringWriter err = new StringWriter();
      assertThat(run(err, "certs", "--add-coordinator", "bob", "--out", out.toString()))
          .as(broken)
          .isEqualTo(2);
      assertThat(err.toString())
          .as(broken)
          .containsAnyOf("ca-key.pem", "not EC", "is not the key of")
          .doesNotContain("\tat ")
          .hasLineCount(1);
      assertThat(out.resolve("coordinator-bob.pem")).doesNotExist();
      assertThat(out.resolve("coordinator-bob-key.pem")).doesNotExist();
    }
  }

  /** A key of {@code algorithm} that is not the CA's, as PEM. */
  private String keyPem(String algorithm) throws Exception {
    Path k = tmp.resolve(algorithm + "-key.pem");
    PemFiles.writeKey(k, KeyPairGenerator.getInstance(algorithm).generateKeyPair().getPrivate());
    return Files.readString(k);
  }
}

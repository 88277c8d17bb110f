package lockstep.common;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The credentials both ends name the same way, a picocli mixin: {@code --tls-cert} and {@code
 * --tls-key}, the certificate (from {@code lockstep certs}) and key this process presents, and
 * {@code --token-file}, the bearer token agent and coordinator share. Which CA each end trusts is
 * its own option ({@code --tls-client-ca} on the agent, {@code --tls-ca} on the coordinator).
 */
public final class CredentialOptions {
  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description = "Certificate this process presents (PEM; `lockstep certs` makes them).")
  private Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "PEM",
      description = "Private key of --tls-cert (PKCS#8 PEM).")
  private Path tlsKey;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "File holding the bearer token agents and coordinators share (or set LOCKSTEP_TOKEN).")
  private Path tokenFile;

  /** What was given; null for each option left out. */
  public Credentials credentials() {
    return new Credentials(tlsCert, tlsKey, tokenFile);
  }
}

package lockstep.agent.security;

import java.nio.file.Path;
import lockstep.common.CredentialOptions;
import lockstep.common.Credentials;
import lockstep.common.Credentials.CredentialsException;
import lockstep.common.Loopback;
import picocli.CommandLine;

/**
 * The agent's security flags, a picocli mixin of {@code lockstep-agent}: {@code --tls-client-ca},
 * {@code --insecure} and the {@link CredentialOptions} the coordinator takes too ({@code
 * --tls-cert}, {@code --tls-key}, {@code --token-file}), checked into an {@link AgentSecurity}: TLS
 * files present and readable, a token that is not empty, and no unauthenticated listener off
 * loopback without {@code --insecure}. Every refusal is a ParameterException naming the option.
 */
public final class SecurityOptions {
  @CommandLine.Mixin private CredentialOptions credentials = new CredentialOptions();

  @CommandLine.Option(
      names = "--tls-client-ca",
      paramLabel = "PEM",
      description =
          "CA certificate that signs coordinator certificates; callers without one are refused"
              + " (mTLS).")
  private Path tlsClientCa;

  @CommandLine.Option(
      names = "--insecure",
      description =
          "Allow listening on a non-loopback address without TLS or token (anyone who reaches the"
              + " port can run workloads).")
  private boolean insecure;

  /** --insecure: an unauthenticated listener off loopback is allowed. */
  public boolean insecure() {
    return insecure;
  }

  public AgentSecurity resolve(CommandLine cmd, String listenHost, String tokenFromEnv) {
    Credentials given = credentials.credentials();
    String token;
    try {
      given.check();
      Credentials.readable("--tls-client-ca", tlsClientCa);
      token = given.token(tokenFromEnv);
    } catch (CredentialsException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage());
    }
    if (tlsClientCa != null && given.tlsCert() == null) {
      throw new CommandLine.ParameterException(
          cmd, "--tls-client-ca needs --tls-cert and --tls-key");
    }
    if (given.tlsCert() != null && tlsClientCa == null && token == null) {
      throw new CommandLine.ParameterException(
          cmd,
          "--tls-cert without --tls-client-ca or a token would let any client in: add"
              + " --tls-client-ca CA.pem or --token-file");
    }
    AgentSecurity security =
        new AgentSecurity(given.tlsCert(), given.tlsKey(), tlsClientCa, token, insecure);
    if (!security.authenticates() && !insecure && !Loopback.is(listenHost)) {
      throw new CommandLine.ParameterException(
          cmd,
          "--listen: "
              + listenHost
              + " is not a loopback address; without --tls-cert/--tls-client-ca or --token-file the"
              + " agent listens on loopback only (add --insecure to accept unauthenticated callers"
              + " there)");
    }
    return security;
  }
}

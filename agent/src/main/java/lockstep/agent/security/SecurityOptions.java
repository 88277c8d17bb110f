package lockstep.agent.security;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.common.CredentialOptions;
import picocli.CommandLine;

/**
 * The agent's security flags, a picocli mixin of {@code lockstep-agent}: {@code --tls-client-ca},
 * {@code --insecure} and the {@link CredentialOptions} the coordinator takes too ({@code
 * --tls-cert}, {@code --tls-key}, {@code --token-file}), checked into an {@link AgentSecurity}: TLS
 * files present and readable, a token that is not empty, and no unauthenticated listener off
 * loopback without {@code --insecure}. Every refusal is a ParameterException naming the option.
 */
public final class SecurityOptions {
  static final int MIN_TOKEN = 16;

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
    Path tlsCert = credentials.tlsCert();
    Path tlsKey = credentials.tlsKey();
    Path tokenFile = credentials.tokenFile();
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new CommandLine.ParameterException(
          cmd, "--tls-cert and --tls-key go together (give both or neither)");
    }
    if (tlsClientCa != null && tlsCert == null) {
      throw new CommandLine.ParameterException(
          cmd, "--tls-client-ca needs --tls-cert and --tls-key");
    }
    for (var f :
        new Object[][] {
          {"--tls-cert", tlsCert},
          {"--tls-key", tlsKey},
          {"--tls-client-ca", tlsClientCa},
          {"--token-file", tokenFile}
        }) {
      Path p = (Path) f[1];
      if (p != null && !Files.isReadable(p)) {
        throw new CommandLine.ParameterException(cmd, f[0] + ": " + p + " is not a readable file");
      }
    }
    String token = token(cmd, tokenFile, tokenFromEnv);
    if (tlsCert != null && tlsClientCa == null && token == null) {
      throw new CommandLine.ParameterException(
          cmd,
          "--tls-cert without --tls-client-ca or a token would let any client in: add"
              + " --tls-client-ca CA.pem or --token-file");
    }
    AgentSecurity security = new AgentSecurity(tlsCert, tlsKey, tlsClientCa, token, insecure);
    if (!security.authenticates() && !insecure && !isLoopback(listenHost)) {
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

  private static String token(CommandLine cmd, Path tokenFile, String fromEnv) {
    String t = null;
    String where = "LOCKSTEP_TOKEN";
    if (tokenFile != null) {
      try {
        t = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        where = "--token-file " + tokenFile;
      } catch (IOException e) {
        throw new CommandLine.ParameterException(
            cmd, "--token-file: " + tokenFile + ": " + e.getMessage());
      }
    } else if (fromEnv != null && !fromEnv.isBlank()) {
      t = fromEnv.strip();
    }
    if (t != null && t.length() < MIN_TOKEN) {
      throw new CommandLine.ParameterException(
          cmd,
          where
              + ": the token has "
              + t.length()
              + " characters; use at least "
              + MIN_TOKEN
              + " (e.g. openssl rand -hex 32)");
    }
    if (t != null && !t.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new CommandLine.ParameterException(
          cmd, where + ": the token must be printable ASCII without spaces");
    }
    return t;
  }

  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}

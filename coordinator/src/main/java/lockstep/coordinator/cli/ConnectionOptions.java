package lockstep.coordinator.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.coordinator.inventory.InventorySecurity;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Option;

/**
 * How to reach agents: {@code --tls-ca --tls-cert --tls-key} (PEM, from {@code lockstep certs}) and
 * {@code --token-file} (or LOCKSTEP_TOKEN); each falls back to the inventory's {@code security:}
 * section. Shared by {@code run}, {@code agents}, {@code collect} and {@code abort}.
 */
final class ConnectionOptions {
  @Option(
      names = "--tls-ca",
      paramLabel = "PEM",
      description = "CA certificate that signed the agents' certificates; turns on TLS.")
  Path tlsCa;

  @Option(
      names = "--tls-cert",
      paramLabel = "PEM",
      description = "This coordinator's client certificate (mTLS).")
  Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "PEM",
      description = "Private key of --tls-cert (PKCS#8 PEM).")
  Path tlsKey;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description = "File holding the agents' shared bearer token (or set LOCKSTEP_TOKEN).")
  Path tokenFile;

  /**
   * @param inventory the --inventory file, or null
   */
  ChannelSecurity resolve(Path inventory) {
    InventorySecurity inv =
        inventory == null
            ? InventorySecurity.NONE
            : new InventoryParser().parse(inventory).security();
    Path ca = or(tlsCa, inv.ca());
    Path cert = or(tlsCert, inv.cert());
    Path key = or(tlsKey, inv.key());
    Path tokenPath = or(tokenFile, inv.tokenFile());
    if ((cert == null) != (key == null)) {
      throw new ScenarioException("--tls-cert and --tls-key go together (give both or neither)");
    }
    if (cert != null && ca == null) {
      throw new ScenarioException(
          "--tls-cert needs --tls-ca (the CA that signed the agents' certificates)");
    }
    for (Object[] f :
        new Object[][] {
          {"--tls-ca", ca}, {"--tls-cert", cert}, {"--tls-key", key}, {"--token-file", tokenPath}
        }) {
      Path p = (Path) f[1];
      if (p != null && !Files.isReadable(p)) {
        throw new ScenarioException(f[0] + ": " + p + " is not a readable file");
      }
    }
    return ChannelSecurity.of(ca, cert, key, token(tokenPath, System.getenv("LOCKSTEP_TOKEN")));
  }

  private static String token(Path file, String fromEnv) {
    if (file == null) {
      return fromEnv == null || fromEnv.isBlank() ? null : fromEnv.strip();
    }
    try {
      String t = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (t.isEmpty()) {
        throw new ScenarioException("--token-file: " + file + " is empty");
      }
      return t;
    } catch (IOException e) {
      throw new ScenarioException("--token-file: " + file + ": " + e.getMessage());
    }
  }

  private static Path or(Path a, Path b) {
    return a != null ? a : b;
  }
}

package lockstep.coordinator.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.common.CredentialOptions;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.coordinator.inventory.InventorySecurity;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How to reach agents: {@code --tls-ca}, and the {@link CredentialOptions} the agents take too
 * ({@code --tls-cert --tls-key}, PEM from {@code lockstep certs}, and {@code --token-file} or
 * LOCKSTEP_TOKEN); each falls back to the inventory's {@code security:} section. Shared by {@code
 * run}, {@code agents}, {@code collect} and {@code abort}.
 */
final class ConnectionOptions {
  @Option(
      names = "--tls-ca",
      paramLabel = "PEM",
      description = "CA certificate that signed the agents' certificates; turns on TLS.")
  Path tlsCa;

  @Mixin CredentialOptions credentials = new CredentialOptions();

  /**
   * @param inventory the --inventory file, or null
   */
  ChannelSecurity resolve(Path inventory) {
    InventorySecurity inv =
        inventory == null
            ? InventorySecurity.NONE
            : new InventoryParser().parse(inventory).security();
    Path ca = or(tlsCa, inv.ca());
    Path cert = or(credentials.tlsCert(), inv.cert());
    Path key = or(credentials.tlsKey(), inv.key());
    Path tokenPath = or(credentials.tokenFile(), inv.tokenFile());
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

package lockstep.coordinator.cli;

import java.nio.file.Path;
import lockstep.common.CredentialOptions;
import lockstep.common.Credentials;
import lockstep.common.Credentials.CredentialsException;
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
    Path ca = tlsCa != null ? tlsCa : inv.ca();
    Credentials given = credentials.credentials().orElse(inv.credentials());
    try {
      given.check();
      Credentials.readable("--tls-ca", ca);
      if (given.tlsCert() != null && ca == null) {
        throw new ScenarioException(
            "--tls-cert needs --tls-ca (the CA that signed the agents' certificates)");
      }
      return ChannelSecurity.of(
          ca, given.tlsCert(), given.tlsKey(), given.token(System.getenv("LOCKSTEP_TOKEN")));
    } catch (CredentialsException e) {
      throw new ScenarioException(e.getMessage());
    }
  }
}

package lockstep.coordinator.inventory;

import java.nio.file.Path;
import lockstep.common.Credentials;

/**
 * An inventory's {@code security:} section: the coordinator's TLS files and token file (paths
 * relative to the inventory file), so {@code --inventory} alone is enough to reach TLS agents.
 */
public record InventorySecurity(Path ca, Path cert, Path key, Path tokenFile) {
  public static final InventorySecurity NONE = new InventorySecurity(null, null, null, null);

  /** The certificate, key and token file, as the command line's would be. */
  public Credentials credentials() {
    return new Credentials(cert, key, tokenFile);
  }
}

package lockstep.coordinator.cli;

import java.nio.file.Path;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryParser;
import picocli.CommandLine.Option;

/**
 * {@code --inventory FILE}: the node list (docs/deploy.md) a command works on: the agents {@code
 * run}, {@code agents}, {@code collect} and {@code abort} reach, the nodes {@code agents launch}
 * and {@code agents stop} reach with ssh, the nodes {@code certs} makes agent certificates for.
 */
final class InventoryOption {
  @Option(
      names = "--inventory",
      paramLabel = "FILE",
      description = "Inventory YAML: the nodes to work on (see deploy/inventory.example.yaml).")
  Path file;

  /** The inventory's nodes, or null without {@code --inventory}. */
  Inventory read() {
    return file == null ? null : new InventoryParser().parse(file);
  }
}

package lockstep.lab;

import java.util.Optional;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.fault.FaultInjectorProvider;
import lockstep.coordinator.inventory.Inventory;

/** The lab carries out the faults of runs on an inventory that names it ({@code lab: DIR}). */
public final class LabFaultInjectorProvider implements FaultInjectorProvider {
  @Override
  public Optional<FaultInjector> forInventory(Inventory inventory) {
    if (inventory.lab() == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Lab(LabConfig.of(inventory.lab(), LabConfig.DEFAULT_CACHE), System.out).faults());
  }
}

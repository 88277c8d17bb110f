package lockstep.coordinator.fault;

import java.util.Optional;
import java.util.ServiceLoader;
import lockstep.coordinator.inventory.Inventory;

/**
 * What carries out the faults of runs on an inventory's nodes, found with {@link ServiceLoader}:
 * the lab module registers one for inventories that name a lab ({@code lab: DIR}); a site could
 * register one that reaches its nodes over ssh. The coordinator knows none of them by name.
 */
public interface FaultInjectorProvider {
  /** The injector for these nodes, or empty when they are not this provider's. */
  Optional<FaultInjector> forInventory(Inventory inventory);

  /**
   * The first provider on the class path that takes {@code inventory}'s nodes; else one that
   * refuses every fault, saying why.
   */
  static FaultInjector find(Inventory inventory, String whyNone) {
    for (FaultInjectorProvider p : ServiceLoader.load(FaultInjectorProvider.class)) {
      Optional<FaultInjector> f = p.forInventory(inventory);
      if (f.isPresent()) {
        return f.get();
      }
    }
    if (inventory.lab() != null) {
      return FaultInjector.none(
          inventory.source()
              + " names the lab "
              + inventory.lab()
              + ", but the lab module is not on the class path: run it with ./lockstep lab run"
              + " (or put lab/target/lockstep-lab.jar beside lockstep.jar)");
    }
    return FaultInjector.none(whyNone);
  }
}

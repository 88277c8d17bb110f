package lockstep.coordinator.scenario;

import java.util.Locale;

/**
 * What a plan runs: every node alone (one after another), every node at once, or a ramp of growing
 * node counts (the first K nodes at once, for each K of the scenario's 'ramp').
 */
public enum PlanStep {
  SOLO,
  ALL,
  RAMP;

  /** As a scenario's plan names it: the constant's name in lower case. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static PlanStep fromYaml(String name) {
    for (PlanStep s : values()) {
      if (s.yamlName().equals(name)) {
        return s;
      }
    }
    return null;
  }
}

package lockstep.coordinator.scenario;

/**
 * What a plan runs: every node alone (one after another), every node at once, or a ramp of growing
 * node counts (the first K nodes at once, for each K of the scenario's 'ramp').
 */
public enum PlanStep {
  SOLO("solo"),
  ALL("all"),
  RAMP("ramp");

  private final String yamlName;

  PlanStep(String yamlName) {
    this.yamlName = yamlName;
  }

  public String yamlName() {
    return yamlName;
  }

  public static PlanStep fromYaml(String name) {
    for (PlanStep s : values()) {
      if (s.yamlName.equals(name)) {
        return s;
      }
    }
    return null;
  }
}

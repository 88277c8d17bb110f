package lockstep.coordinator.scenario;

/** What a plan runs: every node alone (one after another), or every node at once. */
public enum PlanStep {
    SOLO("solo"),
    ALL("all");

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

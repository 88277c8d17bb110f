package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.model.AgentRecord;

/** Environment fields whose values differ between nodes, one line each. */
public final class EnvironmentDiff {
  private EnvironmentDiff() {}

  public static List<String> of(List<AgentRecord> agents) {
    List<String> out = new ArrayList<>();
    if (agents.size() < 2) {
      return out;
    }
    for (EnvironmentField f : EnvironmentField.of(agents)) {
      if (f.differs(agents)) {
        List<String> parts = new ArrayList<>();
        for (AgentRecord a : agents) {
          String v = f.valueOf(a);
          parts.add(a.node() + " " + (v.isEmpty() ? "(unknown)" : v));
        }
        out.add(f.label() + " differs: " + String.join("; ", parts));
      }
    }
    return out;
  }
}

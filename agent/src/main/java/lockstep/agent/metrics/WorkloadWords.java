package lockstep.agent.metrics;

import java.util.Locale;
import lockstep.agent.v1.WorkloadSpec;

/** A workload's type as scenarios write it ({@code lock-files}), for metric labels. */
public final class WorkloadWords {
  private WorkloadWords() {}

  public static String of(WorkloadSpec spec) {
    return spec.getKindCase().name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}

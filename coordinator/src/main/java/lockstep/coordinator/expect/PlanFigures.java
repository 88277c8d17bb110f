package lockstep.coordinator.expect;

import java.util.List;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.RunRecord;

/**
 * Which figures a run can produce, known before it starts: from its plan (a solo figure per node
 * needs a solo step or a one-node ramp step; a together figure needs "all" or a ramp step of more
 * than one node, as the analysis picks them) and its workload (the throughput unit, from {@link
 * WorkloadKind#unit}; whether it checks coherence).
 *
 * @param plan the plan's step names as written (solo, all, ramp), for messages
 * @param unit the run's throughput unit: MB/s, locks/s or ops/s
 * @param workload the workload type, for messages
 * @param noCoherence why this run counts no coherence errors, or null when it does
 */
public record PlanFigures(
    List<String> plan,
    boolean solo,
    boolean together,
    String unit,
    String workload,
    String noCoherence) {

  public PlanFigures {
    plan = List.copyOf(plan);
  }

  /** A scenario's: its plan, its ramp (empty means 1, 2, 4 ... all) and its workload. */
  public static PlanFigures of(
      List<String> plan, List<Integer> ramp, WorkloadKind<?> kind, WorkloadSpec spec) {
    return new PlanFigures(
        plan,
        solo(plan, ramp),
        together(plan, ramp),
        kind.unit(),
        kind.name(),
        kind.checksCoherence(spec) ? null : noCoherence(kind));
  }

  /**
   * A saved run's, for judging it again: its plan and ramp as run.json keeps them, its workload's
   * kind (a type this version does not know keeps run.json's unit and may be judged on coherence).
   */
  public static PlanFigures of(RunRecord run) {
    WorkloadKind<?> kind = run.kind();
    return new PlanFigures(
        run.plan(),
        solo(run.plan(), run.ramp()),
        together(run.plan(), run.ramp()),
        kind != null ? kind.unit() : run.unit(),
        run.workloadType(),
        kind == null || kind.canCheckCoherence() ? null : noCoherence(kind));
  }

  private static boolean solo(List<String> plan, List<Integer> ramp) {
    return plan.contains("solo") || plan.contains("ramp") && (ramp.isEmpty() || ramp.contains(1));
  }

  private static boolean together(List<String> plan, List<Integer> ramp) {
    return plan.contains("all")
        || plan.contains("ramp") && (ramp.isEmpty() || ramp.stream().anyMatch(k -> k > 1));
  }

  private static String noCoherence(WorkloadKind<?> kind) {
    if (kind.canCheckCoherence()) {
      return "workload " + kind.name() + " counts coherence errors only " + kind.coherenceNote();
    }
    List<String> those =
        WorkloadKind.ALL.stream()
            .filter(WorkloadKind::canCheckCoherence)
            .map(k -> k.name() + " " + k.coherenceNote())
            .toList();
    return "workload "
        + kind.name()
        + " does not check coherence (only "
        + String.join(", ", those)
        + " does)";
  }
}

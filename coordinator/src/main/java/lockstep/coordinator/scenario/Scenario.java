package lockstep.coordinator.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;

/**
 * A parsed, validated scenario: what to run on which agents in which plan.
 *
 * @param workloadParams the workload as written (after defaults), for reports and run.json
 * @param repeat how often the whole plan runs (steps interleaved: plan, plan, ...)
 * @param ramp node counts for the plan's "ramp" step; empty means 1, 2, 4 ... and all nodes
 * @param telemetry whether agents sample node resources during each step (`telemetry: false` turns
 *     it off, to measure what sampling costs)
 */
public record Scenario(
    String name,
    List<String> agents,
    List<PlanStep> plan,
    Map<String, Object> workloadParams,
    WorkloadSpec workload,
    Duration timeout,
    Duration startLead,
    double skewWarnFraction,
    int repeat,
    List<Integer> ramp,
    boolean telemetry) {

  public Scenario {
    repeat = Math.max(1, repeat);
    ramp = ramp == null ? List.of() : List.copyOf(ramp);
  }

  public Scenario withAgents(List<String> newAgents) {
    return new Scenario(
        name,
        List.copyOf(newAgents),
        plan,
        workloadParams,
        workload,
        timeout,
        startLead,
        skewWarnFraction,
        repeat,
        ramp,
        telemetry);
  }

  /** The workload's type, described once. */
  public WorkloadKind<?> kind() {
    return WorkloadKind.of(workload);
  }

  /** The scenario's {@code workload.type}. */
  public String workloadType() {
    return kind().name();
  }
}

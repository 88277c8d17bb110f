package lockstep.coordinator.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;

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
    String workloadType,
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

  /** A plan run once, default ramp. */
  public Scenario(
      String name,
      List<String> agents,
      List<PlanStep> plan,
      String workloadType,
      Map<String, Object> workloadParams,
      WorkloadSpec workload,
      Duration timeout,
      Duration startLead,
      double skewWarnFraction) {
    this(
        name,
        agents,
        plan,
        workloadType,
        workloadParams,
        workload,
        timeout,
        startLead,
        skewWarnFraction,
        1,
        List.of());
  }

  /** Resource telemetry on. */
  public Scenario(
      String name,
      List<String> agents,
      List<PlanStep> plan,
      String workloadType,
      Map<String, Object> workloadParams,
      WorkloadSpec workload,
      Duration timeout,
      Duration startLead,
      double skewWarnFraction,
      int repeat,
      List<Integer> ramp) {
    this(
        name,
        agents,
        plan,
        workloadType,
        workloadParams,
        workload,
        timeout,
        startLead,
        skewWarnFraction,
        repeat,
        ramp,
        true);
  }

  public Scenario withAgents(List<String> newAgents) {
    return new Scenario(
        name,
        List.copyOf(newAgents),
        plan,
        workloadType,
        workloadParams,
        workload,
        timeout,
        startLead,
        skewWarnFraction,
        repeat,
        ramp,
        telemetry);
  }

  public String unit() {
    if (bytesUnit()) {
      return "MB/s";
    }
    return workload.hasMetadata() ? "ops/s" : "locks/s";
  }

  /** True when throughput is bytes moved (write, read), false when it is operations. */
  public boolean bytesUnit() {
    return workload.hasWrite() || workload.hasRead();
  }

  /** What one counted operation is: "write", "read", "lock" or "metadata op". */
  public String opName() {
    return switch (workload.getKindCase()) {
      case WRITE -> "write";
      case READ -> "read";
      case METADATA -> "metadata op";
      default -> "lock";
    };
  }
}

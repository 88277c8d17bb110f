package lockstep.coordinator.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.expect.Expectation;
import lockstep.coordinator.expect.PlanFigures;
import lockstep.coordinator.model.Fault;

/**
 * A parsed, validated scenario: what to run on which agents in which plan.
 *
 * @param workload what every agent runs, typed; run.json records it as it is
 * @param repeat how often the whole plan runs (steps interleaved: plan, plan, ...)
 * @param ramp node counts for the plan's "ramp" step; empty means 1, 2, 4 ... and all nodes
 * @param telemetry whether agents sample node resources during each step (`telemetry: false` turns
 *     it off, to measure what sampling costs)
 * @param expectations what the run's figures must satisfy (`expect:`, then `--expect`); checked
 *     against the plan and the workload when read
 * @param warmUp whether agents that have not run a step since they started get an unmeasured
 *     warm-up step first (`warm-up: false` turns it off)
 * @param faults what the lab does to which node during each step that has the victim and another
 *     node ({@code faults:}); empty for a run without faults
 */
public record Scenario(
    String name,
    List<String> agents,
    List<PlanStep> plan,
    WorkloadSpec workload,
    Duration timeout,
    Duration startLead,
    double skewWarnFraction,
    int repeat,
    List<Integer> ramp,
    boolean telemetry,
    List<Expectation> expectations,
    boolean warmUp,
    List<Fault> faults) {

  public Scenario {
    repeat = Math.max(1, repeat);
    ramp = ramp == null ? List.of() : List.copyOf(ramp);
    expectations = expectations == null ? List.of() : List.copyOf(expectations);
    faults = faults == null ? List.of() : List.copyOf(faults);
  }

  /** The same scenario running {@code spec} instead (the unmeasured warm-up step). */
  public Scenario withWorkload(WorkloadSpec spec) {
    return with(agents, spec, expectations, false, List.of());
  }

  /**
   * As {@link #withWorkload(WorkloadSpec)}; {@code words}, the spec in the scenario's words, is not
   * kept (the spec is what run.json records). For run/WarmUpStep until it calls the other.
   */
  public Scenario withWorkload(WorkloadSpec spec, Map<String, Object> words) {
    return withWorkload(spec);
  }

  /**
   * The workload as run.json records it: {@link #workload}, by the name run/ExperimentRunner asks.
   */
  public WorkloadSpec workloadParams() {
    return workload;
  }

  public Scenario withAgents(List<String> newAgents) {
    return with(List.copyOf(newAgents), workload, expectations, warmUp, faults);
  }

  /** The same scenario judged by {@code newExpectations} instead. */
  public Scenario withExpectations(List<Expectation> newExpectations) {
    return with(agents, workload, newExpectations, warmUp, faults);
  }

  private Scenario with(
      List<String> newAgents,
      WorkloadSpec spec,
      List<Expectation> newExpectations,
      boolean newWarmUp,
      List<Fault> newFaults) {
    return new Scenario(
        name,
        newAgents,
        plan,
        spec,
        timeout,
        startLead,
        skewWarnFraction,
        repeat,
        ramp,
        telemetry,
        newExpectations,
        newWarmUp,
        newFaults);
  }

  /** The figures this scenario's runs can produce, which its expectations may judge. */
  public PlanFigures figures() {
    return PlanFigures.of(plan.stream().map(PlanStep::yamlName).toList(), ramp, kind(), workload);
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

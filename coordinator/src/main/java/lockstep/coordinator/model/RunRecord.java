package lockstep.coordinator.model;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;

/**
 * Everything one `lockstep run` measured; saved as results/RUN-ID/run.json (docs/results.md).
 *
 * @param workloadType the workload's type as a scenario names it (its spec's kind when it has one)
 * @param workload what every agent ran: the typed spec, written as protobuf's JSON
 * @param expectations every expectation the run was judged by and its outcome (empty without any,
 *     and in run.json files written before expectations existed)
 * @param agents the agents that ran the workload
 * @param watchers watch-only agents (an inventory node's {@code role: watch}, e.g. on the NFS
 *     server): they ran no workload, only sampled their node's resources in every step ({@link
 *     StepRecord#watched}); none of the run's figures or verdicts counts them
 */
public record RunRecord(
    String schema,
    String runId,
    String name,
    String createdAt,
    String coordinatorVersion,
    String workloadType,
    @JsonSerialize(using = WorkloadJson.Writer.class)
        @JsonDeserialize(using = WorkloadJson.Reader.class)
        WorkloadSpec workload,
    String unit,
    String opName,
    List<String> plan,
    List<AgentRecord> agents,
    List<StepRecord> steps,
    Analysis analysis,
    RunStatus status,
    List<String> errors,
    int repeat,
    List<Integer> ramp,
    double skewWarnFraction,
    List<ExpectationOutcome> expectations,
    List<AgentRecord> watchers) {

  /** v2: {@code workload} is the typed spec; v1 wrote it as a map of the scenario's keys. */
  public static final String SCHEMA = "lockstep.run/v2";

  public static final double DEFAULT_SKEW_WARN_FRACTION = 0.05;

  public RunRecord {
    errors = errors == null ? List.of() : errors;
    plan = plan == null ? List.of() : plan;
    workload = workload == null ? WorkloadSpec.getDefaultInstance() : workload;
    if (workload.getKindCase() != WorkloadSpec.KindCase.KIND_NOT_SET) {
      workloadType = WorkloadKind.of(workload).name();
    }
    repeat = Math.max(1, repeat);
    ramp = ramp == null ? List.of() : List.copyOf(ramp);
    skewWarnFraction = skewWarnFraction <= 0 ? DEFAULT_SKEW_WARN_FRACTION : skewWarnFraction;
    expectations = expectations == null ? List.of() : List.copyOf(expectations);
    watchers = watchers == null ? List.of() : List.copyOf(watchers);
  }

  public RunRecord withAnalysis(Analysis newAnalysis) {
    return with(agents, newAnalysis, expectations);
  }

  /** The same run judged by these expectations' outcomes. */
  public RunRecord withExpectations(List<ExpectationOutcome> outcomes) {
    return with(agents, analysis, outcomes);
  }

  public RunRecord withAgents(List<AgentRecord> newAgents) {
    return with(newAgents, analysis, expectations);
  }

  /** The workload's type, from its spec; null when the record holds none. */
  public WorkloadKind<?> kind() {
    return workload.getKindCase() == WorkloadSpec.KindCase.KIND_NOT_SET
        ? null
        : WorkloadKind.of(workload);
  }

  /** The lock the workload takes (fcntl, OFD, flock); LOCK_KIND_UNSPECIFIED for none. */
  public LockKind lockKind() {
    WorkloadKind<?> k = kind();
    return k == null ? LockKind.LOCK_KIND_UNSPECIFIED : k.lockKind(workload);
  }

  /** The workload in the scenario's words ({@link WorkloadKind#settings}), for reports. */
  public Map<String, Object> workloadSettings() {
    WorkloadKind<?> k = kind();
    return k == null ? Map.of() : k.settings(workload);
  }

  /** True when throughput is bytes moved (MB/s), false for operations (locks/s, ops/s). */
  public boolean bytesUnit() {
    WorkloadKind<?> k = kind();
    return k != null ? k.countsBytes() : "MB/s".equals(unit);
  }

  /** Whether the run's operations are lock calls. */
  public boolean takesLocks() {
    WorkloadKind<?> k = kind();
    return k != null ? k.takesLocks() : "lock".equals(opName);
  }

  /** The overlap window of step {@code stepId}, or null (no analysis, or a one-node step). */
  public OverlapWindow window(String stepId) {
    if (analysis == null) {
      return null;
    }
    return analysis.windows().stream()
        .filter(w -> w.stepId().equals(stepId))
        .findFirst()
        .orElse(null);
  }

  private RunRecord with(
      List<AgentRecord> newAgents, Analysis newAnalysis, List<ExpectationOutcome> outcomes) {
    return new RunRecord(
        schema,
        runId,
        name,
        createdAt,
        coordinatorVersion,
        workloadType,
        workload,
        unit,
        opName,
        plan,
        newAgents,
        steps,
        newAnalysis,
        status,
        errors,
        repeat,
        ramp,
        skewWarnFraction,
        outcomes,
        watchers);
  }
}

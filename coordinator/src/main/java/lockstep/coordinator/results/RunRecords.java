package lockstep.coordinator.results;

import java.util.List;
import java.util.Map;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.Version;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;

/** A run's record and its agents' records as run.json keeps them, analysed. */
public final class RunRecords {
  private RunRecords() {}

  /**
   * What the record says of the run besides its steps.
   *
   * @param workload what every agent ran
   * @param plan the plan's step names (solo, all, ramp)
   */
  public record RunShape(
      String name,
      WorkloadKind<?> kind,
      WorkloadSpec workload,
      List<String> plan,
      int repeat,
      List<Integer> ramp,
      double skewWarnFraction) {}

  /** The run's record, analysed (scaling, verdicts). */
  public static RunRecord of(
      String runId,
      String createdAt,
      RunShape shape,
      List<AgentRecord> agents,
      List<AgentRecord> watchers,
      List<StepRecord> steps,
      RunStatus status,
      List<String> errors) {
    return RunAnalyzer.analysed(
        new RunRecord(
            RunRecord.SCHEMA,
            runId,
            shape.name(),
            createdAt,
            Version.get(),
            shape.kind().name(),
            shape.workload(),
            shape.kind().unit(),
            shape.kind().opName(),
            shape.plan(),
            List.copyOf(agents),
            List.copyOf(steps),
            null,
            status,
            List.copyOf(errors),
            shape.repeat(),
            shape.ramp(),
            shape.skewWarnFraction(),
            List.of(),
            List.copyOf(watchers)));
  }

  /** An agent as run.json records it, from its Describe answer. */
  public static AgentRecord agent(String address, DescribeResponse d) {
    return new AgentRecord(
        d.getNodeName(),
        address,
        d.getVersion(),
        d.getHostname(),
        d.getRoot(),
        d.getFsType(),
        d.getMountPoint(),
        d.getMountOptions(),
        d.getMountSource(),
        d.getKernel(),
        d.getCpuCount(),
        d.getCpuModel(),
        d.getMemoryBytes(),
        d.getBlockDevice(),
        d.getClusterSettingsMap(),
        Map.of(),
        d.getBootId());
  }
}

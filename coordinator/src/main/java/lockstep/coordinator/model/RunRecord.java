package lockstep.coordinator.model;

import java.util.List;
import java.util.Map;

/** Everything one `lockstep run` measured; saved as results/RUN-ID/run.json (docs/results.md). */
public record RunRecord(
        String schema,
        String runId,
        String name,
        String createdAt,
        String coordinatorVersion,
        String workloadType,
        Map<String, Object> workload,
        String unit,
        String opName,
        List<String> plan,
        List<AgentRecord> agents,
        List<StepRecord> steps,
        Analysis analysis,
        String status,
        List<String> errors) {

    public static final String SCHEMA = "lockstep.run/v1";

    public RunRecord withAgents(List<AgentRecord> newAgents) {
        return new RunRecord(schema, runId, name, createdAt, coordinatorVersion, workloadType, workload, unit, opName, plan,
                newAgents, steps, analysis, status, errors);
    }
}

package lockstep.coordinator.run;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import lockstep.agent.Version;
import lockstep.agent.v1.DescribeResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.scenario.PlanFields;
import lockstep.coordinator.scenario.PlanStep;
import lockstep.coordinator.scenario.Scenario;

/** Runs a scenario's plan ({@link PlanSchedule}: solo, all, ramp, repeated) into a RunRecord. */
public final class ExperimentRunner {
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final long DESCRIBE_TIMEOUT_MILLIS = 15_000;

    private final Scenario scenario;
    private final AgentEnsemble ensemble;
    private final RunListener listener;

    public ExperimentRunner(Scenario scenario, AgentEnsemble ensemble, RunListener listener) {
        this.scenario = scenario;
        this.ensemble = ensemble;
        this.listener = listener;
    }

    public static String newRunId(String name) {
        return RUN_ID_TIME.format(Instant.now()) + "-" + name + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }

    /**
     * Describes every agent (all must answer and have distinct node names), then runs the plan.
     * Stops at the first failed step; the record says which and why.
     */
    public RunRecord run(String runId) {
        List<Agent> agents = ensemble.agents();
        FanOut<DescribeResponse> described = ensemble.call("describe", agents, Agent::describe, DESCRIBE_TIMEOUT_MILLIS);
        if (!described.ok()) {
            throw new RunFailedException(described.errorMessages());
        }
        List<AgentRecord> agentRecords = new ArrayList<>();
        List<StepNode> nodes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Agent a : agents) {
            DescribeResponse d = described.values().get(a);
            if (!seen.add(d.getNodeName())) {
                throw new RunFailedException(List.of("agent " + a.address() + ": node name '" + d.getNodeName()
                        + "' is used by another agent too; start each agent with its own --name"));
            }
            nodes.add(new StepNode(d.getNodeName(), a));
            agentRecords.add(new AgentRecord(d.getNodeName(), a.address(), d.getVersion(), d.getHostname(), d.getRoot(),
                    d.getFsType(), d.getMountPoint(), d.getMountOptions(), d.getMountSource(), d.getKernel(),
                    d.getCpuCount(), d.getCpuModel(), d.getMemoryBytes(), d.getBlockDevice(), d.getClusterSettingsMap())
                    .withBootId(d.getBootId()));
        }
        List<PlanSchedule.Scheduled> schedule = PlanSchedule.of(scenario, nodes);
        StepRunner steps = new StepRunner(scenario, ensemble, listener);
        List<StepRecord> done = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        String createdAt = Instant.now().toString();
        for (PlanSchedule.Scheduled step : schedule) {
            StepRecord record = steps.run(runId, step.id(), step.kind(), step.nodes()).withPlace(step.group(), step.repeat());
            done.add(record);
            listener.stepFinished(record);
            if (!record.ok()) {
                errors.addAll(record.errors());
                break;
            }
        }
        RunRecord partial = new RunRecord(RunRecord.SCHEMA, runId, scenario.name(), createdAt, Version.get(),
                scenario.workloadType(), scenario.workloadParams(), scenario.unit(), scenario.opName(),
                scenario.plan().stream().map(PlanStep::yamlName).toList(), agentRecords, done, null,
                errors.isEmpty() ? "ok" : "failed", errors, scenario.repeat(),
                scenario.plan().contains(PlanStep.RAMP) ? PlanFields.counts(scenario.ramp(), nodes.size()) : List.of(),
                scenario.skewWarnFraction());
        return RunAnalyzer.analysed(partial);
    }
}

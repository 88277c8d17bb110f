package lockstep.coordinator.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.report.ConsoleProgress;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.report.TextReport;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioException;

/** One `lockstep run`: connect, run the plan, save run.json, CSVs and report.html, print the report. */
public final class RunSession {
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9a-fA-F:]+\\]|[A-Za-z0-9._-]+):(\\d{1,5})");

    private final PrintStream out;
    private final ChannelSecurity security;

    public RunSession(PrintStream out) {
        this(out, ChannelSecurity.NONE);
    }

    public RunSession(PrintStream out, ChannelSecurity security) {
        this.security = security;
        this.out = out;
    }

    /** Checks agent addresses: HOST:PORT, or a gRPC dns:/// target. */
    public static List<String> validateAddresses(List<String> addresses, String source) {
        if (addresses.isEmpty()) {
            throw new ScenarioException("no agents: give --agents HOST:PORT,HOST:PORT or 'agents:' in " + source);
        }
        List<String> out = new ArrayList<>();
        for (String a : addresses) {
            String t = a.trim();
            var m = HOST_PORT.matcher(t);
            if (!t.startsWith("dns:///") && (!m.matches() || Integer.parseInt(m.group(2)) > 65535 || Integer.parseInt(m.group(2)) == 0)) {
                throw new ScenarioException("agent address '" + a + "' (from " + source + ") is not HOST:PORT");
            }
            if (out.contains(t)) {
                throw new ScenarioException("agent address '" + a + "' is listed twice (from " + source + ")");
            }
            out.add(t);
        }
        return out;
    }

    public record Outcome(RunRecord run, Path runJson) {
        public boolean ok() {
            return "ok".equals(run.status());
        }
    }

    public Outcome execute(Scenario scenario, Path resultsDir) {
        return execute(scenario, resultsDir, Map.of());
    }

    /** @param labelsByAddress labels (from an inventory) for the agent records, by agent address */
    public Outcome execute(Scenario scenario, Path resultsDir, Map<String, Map<String, String>> labelsByAddress) {
        lockstep.coordinator.scenario.ScenarioParser.checkNodeCount(scenario, scenario.agents().size(),
                scenario.name() + " on " + scenario.agents().size() + " agent(s)");
        List<Agent> agents = scenario.agents().stream().<Agent>map(a -> GrpcAgent.connect(a, security)).toList();
        try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
            String runId = ExperimentRunner.newRunId(scenario.name());
            out.printf("Run %s: %s on %s, plan %s%n", runId, scenario.workloadType(), String.join(", ", scenario.agents()),
                    scenario.plan().stream().map(p -> p.yamlName()).toList());
            RunRecord run = new ExperimentRunner(scenario, ensemble, ConsoleProgress.forScenario(out, scenario)).run(runId);
            if (!labelsByAddress.isEmpty()) {
                run = run.withAgents(run.agents().stream()
                        .map(a -> a.withLabels(labelsByAddress.getOrDefault(a.address(), Map.of()))).toList());
            }
            Path saved = new ResultsStore(resultsDir).save(run);
            TextReport.print(run, out);
            out.printf("%nResults: %s%nReport:  %s%n", saved, saved.resolveSibling(ResultsStore.REPORT_FILE));
            return new Outcome(run, saved);
        }
    }
}

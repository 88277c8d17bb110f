package lockstep.coordinator.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lockstep.agent.v1.DescribeResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.inventory.AgentSelection;
import lockstep.coordinator.inventory.AgentTargets;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lockstep agents --agents H:P,... | --inventory FILE}: who answers, their clock offset and round trip;
 * subcommands {@code launch} and {@code stop} start and end agents over SSH.
 */
@Command(name = "agents", mixinStandardHelpOptions = true, description = "Show each agent: node, version, file system, clock offset.",
        subcommands = {AgentsLaunchCommand.class, AgentsStopCommand.class})
final class AgentsCommand implements Callable<Integer> {
    @Option(names = "--agents", split = ",", paramLabel = "HOST:PORT",
            description = "Agents to query; dns:///NAME:PORT means every address of NAME.")
    List<String> agents;

    @Option(names = "--inventory", paramLabel = "FILE", description = "Query the nodes of this inventory YAML.")
    Path inventory;

    @picocli.CommandLine.Mixin
    ConnectionOptions connection = new ConnectionOptions();

    record Row(DescribeResponse info, ClockOffset clock) {
    }

    @Override
    public Integer call() {
        if (agents == null && inventory == null) {
            throw new ScenarioException("give --agents HOST:PORT,... or --inventory FILE");
        }
        List<String> addresses = AgentSelection.choose(agents, inventory, List.of(), "--agents", AgentTargets.system()).addresses();
        var security = connection.resolve(inventory);
        List<Agent> list = addresses.stream().<Agent>map(a -> GrpcAgent.connect(a, security)).toList();
        try (AgentEnsemble ensemble = new AgentEnsemble(list)) {
            var rows = ensemble.call("describe", list, a -> new Row(a.describe(), ClockOffset.measure(a)), 20_000);
            System.out.printf("%-24s %-12s %-15s %-10s %-10s %12s %10s %-5s  %s%n", "address", "node", "version", "reachable",
                    "fs", "offset ms", "+- ms", "probe", "root");
            for (Agent a : list) {
                Row r = rows.values().get(a);
                if (r == null) {
                    System.out.printf("%-24s %-12s %-15s %-10s%n", a.address(), "-", "-", "no");
                    continue;
                }
                System.out.printf(Locale.ROOT, "%-24s %-12s %-15s %-10s %-10s %12.3f %10.3f %-5s  %s%n", a.address(),
                        r.info().getNodeName(), r.info().getVersion(), "yes", r.info().getFsType(),
                        r.clock().offsetNanos() / 1e6, r.clock().uncertaintyNanos() / 1e6,
                        a instanceof GrpcAgent g && g.probesClockOverUdp() ? "udp" : "grpc", r.info().getRoot());
            }
            rows.errorMessages().forEach(m -> System.err.println("lockstep: " + m));
            return rows.ok() ? 0 : LockstepCli.EXIT_RUN_FAILED;
        }
    }
}

package lockstep.coordinator.cli;

import java.time.Duration;
import java.util.Locale;
import lockstep.agent.v1.DescribeResponse;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.agent.GrpcAgent;
import picocli.CommandLine.Command;

/**
 * {@code lockstep agents --agents H:P,... | --inventory FILE}: who answers, their clock offset and
 * round trip; subcommands {@code launch} and {@code stop} start and end agents over SSH.
 */
@Command(
    name = "agents",
    description = "Show each agent: node, version, file system, clock offset.",
    subcommands = {AgentsLaunchCommand.class, AgentsStopCommand.class})
final class AgentsCommand extends OnAgents {
  /** Describe and clock probes of every agent (a cold agent reads its environment first). */
  private static final Duration BUDGET = Duration.ofSeconds(20);

  record Row(DescribeResponse info, ClockOffset clock) {}

  @Override
  int on(AgentEnsemble agents) {
    var rows =
        agents.call(
            "describe",
            BUDGET,
            agents.agents(),
            a -> new Row(a.describe(), ClockOffset.measure(a)));
    System.out.printf(
        "%-24s %-12s %-15s %-10s %-10s %12s %10s %-5s  %s%n",
        "address", "node", "version", "reachable", "fs", "offset ms", "+- ms", "probe", "root");
    for (Agent a : agents.agents()) {
      Row r = rows.values().get(a);
      if (r == null) {
        System.out.printf("%-24s %-12s %-15s %-10s%n", a.address(), "-", "-", "no");
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "%-24s %-12s %-15s %-10s %-10s %12.3f %10.3f %-5s  %s%n",
          a.address(),
          r.info().getNodeName(),
          r.info().getVersion(),
          "yes",
          r.info().getFsType(),
          r.clock().offsetNanos() / 1e6,
          r.clock().uncertaintyNanos() / 1e6,
          a instanceof GrpcAgent g && g.probesClockOverUdp() ? "udp" : "grpc",
          r.info().getRoot());
    }
    rows.errorMessages().forEach(m -> System.err.println("lockstep: " + m));
    return rows.ok() ? 0 : LockstepCli.EXIT_RUN_FAILED;
  }
}

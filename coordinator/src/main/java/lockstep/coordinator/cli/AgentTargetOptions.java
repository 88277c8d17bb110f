package lockstep.coordinator.cli;

import java.util.List;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.inventory.AgentSelection;
import lockstep.coordinator.inventory.AgentTargets;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which agents a command asks ({@code --agents H:P,...} or {@code --inventory FILE}) and how it
 * reaches them ({@link ConnectionOptions}). Shared by {@code agents}, {@code collect} and {@code
 * abort}; {@code run} also takes the scenario's agents and has its own.
 */
final class AgentTargetOptions {
  @Option(
      names = "--agents",
      split = ",",
      paramLabel = "HOST:PORT",
      description = "Agents to ask; dns:///NAME:PORT means every address of NAME.")
  List<String> agents;

  @CommandLine.Mixin InventoryOption inventory = new InventoryOption();

  @CommandLine.Mixin ConnectionOptions connection = new ConnectionOptions();

  /** A client per agent, in the order given; the caller closes them (an AgentEnsemble does). */
  List<Agent> connect() {
    if (agents == null && inventory.file == null) {
      throw new ScenarioException("give --agents HOST:PORT,... or --inventory FILE");
    }
    if (agents != null && inventory.file != null) {
      // a usage error before the file is read: told as such whatever the inventory holds
      throw new ScenarioException("give --agents or --inventory, not both");
    }
    AgentSelection selection =
        AgentSelection.choose(
            agents, inventory.read(), List.of(), "--agents", AgentTargets.system());
    var security = connection.resolve(inventory.file);
    return selection.addresses().stream()
        .<Agent>map(a -> GrpcAgent.connect(a, selection.root(a), security))
        .toList();
  }
}

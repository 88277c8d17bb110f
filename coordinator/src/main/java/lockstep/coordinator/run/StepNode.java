package lockstep.coordinator.run;

import lockstep.coordinator.agent.Agent;

/** An agent taking part in a run, with the node name it reported. */
public record StepNode(String node, Agent agent) {}

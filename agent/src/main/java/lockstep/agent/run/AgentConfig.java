package lockstep.agent.run;

import java.nio.file.Path;

/** What an agent was started with. */
public record AgentConfig(String nodeName, Path root, String listenHost, int listenPort) {}

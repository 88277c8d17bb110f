package lockstep.agent.run;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What an agent was started with.
 *
 * @param roots the directories workload files live under (its --root options, real paths), the
 *     first the default: one agent per node can serve the node's several file systems
 */
public record AgentConfig(String nodeName, List<Path> roots, String listenHost, int listenPort) {
  public AgentConfig {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("an agent needs a root");
    }
    roots = List.copyOf(roots);
  }

  public AgentConfig(String nodeName, Path root, String listenHost, int listenPort) {
    this(nodeName, List.of(root), listenHost, listenPort);
  }

  /** The default root: the first. */
  public Path root() {
    return roots.get(0);
  }

  /**
   * The root a call asks for: {@code requested} (normalized) if it is one of {@link #roots}, the
   * first when it is empty or when the agent has only one (a coordinator's inventory may name the
   * root as the node sees it, not as the agent was started).
   *
   * @throws RunException.Invalid when the agent has several roots and this is none of them
   */
  public Path root(String requested) {
    if (requested.isEmpty() || roots.size() == 1) {
      return root();
    }
    Path asked = Path.of(requested).normalize();
    if (roots.contains(asked)) {
      return asked;
    }
    throw new RunException.Invalid(
        "root: '"
            + requested
            + "' is not one of node "
            + nodeName
            + "'s roots ("
            + roots.stream().map(Path::toString).collect(Collectors.joining(", "))
            + ")");
  }
}

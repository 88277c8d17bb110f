package lockstep.coordinator.launch;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.scenario.ScenarioException;

/** The agent jar to copy to nodes, and its content-addressed remote name. */
public record AgentJar(Path path, String remoteName) {

  public static AgentJar of(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new ScenarioException(
          "--agent-jar: " + path + " is not a file (build it with mvn -DskipTests package)");
    }
    return new AgentJar(
        path, "lockstep-agent-" + FileDigest.sha256(path, "--agent-jar").substring(0, 12) + ".jar");
  }

  /**
   * The jar next to the running coordinator: lockstep-agent.jar in the same directory (an
   * installation or the container image), or agent/target/ of the source tree (the coordinator
   * running from coordinator/target/lockstep.jar or coordinator/target/classes).
   */
  public static AgentJar locate() {
    Path self;
    try {
      self = Path.of(AgentJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new ScenarioException(
          "no agent jar found: cannot tell where the coordinator runs from ("
              + e.getMessage()
              + "); give --agent-jar");
    }
    return locateFrom(self);
  }

  /**
   * {@link #locate()} for a coordinator whose code is at {@code codeLocation} (a jar or a classes
   * directory).
   */
  static AgentJar locateFrom(Path codeLocation) {
    Path dir = codeLocation.toAbsolutePath().getParent();
    List<Path> candidates = new ArrayList<>(List.of(dir.resolve("lockstep-agent.jar")));
    if (dir.getParent() != null && dir.getParent().getParent() != null) {
      candidates.add(dir.getParent().getParent().resolve("agent/target/lockstep-agent.jar"));
    }
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return of(candidate.normalize());
      }
    }
    throw new ScenarioException(
        "no agent jar found (looked at "
            + candidates.stream().map(Path::normalize).toList()
            + "); build it with mvn -DskipTests package (agents launch also takes --agent-jar)");
  }
}

package lockstep.coordinator.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the source tree the tests use: the Dockerfile and the jars `mvn package` built. */
public final class RepoFiles {
  private RepoFiles() {}

  public static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("deploy/docker/Dockerfile"))) {
        return p;
      }
    }
    throw new IllegalStateException("no deploy/docker/Dockerfile above " + dir);
  }

  public static Path agentJar() {
    return built("agent/target/lockstep-agent.jar");
  }

  public static Path coordinatorJar() {
    return built("coordinator/target/lockstep.jar");
  }

  private static Path built(String rel) {
    Path p = root().resolve(rel);
    if (!Files.isRegularFile(p)) {
      throw new IllegalStateException(
          p + " is missing: the *IT tests run after `package` (mvn -B verify)");
    }
    return p;
  }
}

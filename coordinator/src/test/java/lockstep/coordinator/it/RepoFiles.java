package lockstep.coordinator.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import lockstep.testsupport.Required;

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

  /**
   * The agent's .deb that {@code mvn -B package -Pdist} (CI=true turns the profile on) built into
   * dist/target; missing: the test fails under CI=true, else it is skipped.
   */
  public static Path agentDeb() throws IOException {
    Path dir = root().resolve("dist/target");
    List<Path> debs;
    try (Stream<Path> files = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
      debs =
          files
              .filter(p -> p.getFileName().toString().matches("lockstep-agent_.*_amd64\\.deb"))
              .sorted()
              .toList();
    }
    if (debs.isEmpty()) {
      Required.missing(
          "no lockstep-agent_*_amd64.deb in "
              + dir
              + " (build it: mvn -B package -Pdist -pl dist -am)");
    }
    return debs.get(debs.size() - 1);
  }

  /** The agent's tarball in dist/target ({@code mvn -B package -Pdist}); missing: as agentDeb. */
  static Path agentTarball() throws IOException {
    Path dir = root().resolve("dist/target");
    List<Path> found;
    try (Stream<Path> files = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
      found =
          files
              .filter(
                  p ->
                      p.getFileName()
                          .toString()
                          .matches("lockstep-agent-.*-linux-amd64\\.tar\\.gz"))
              .sorted()
              .toList();
    }
    if (found.isEmpty()) {
      Required.missing(
          "no lockstep-agent-*-linux-amd64.tar.gz in "
              + dir
              + " (build it: mvn -B package -Pdist -pl dist -am)");
    }
    return found.get(found.size() - 1);
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

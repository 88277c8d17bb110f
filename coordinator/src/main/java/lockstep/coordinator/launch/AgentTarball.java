package lockstep.coordinator.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lockstep.coordinator.scenario.ScenarioException;

/**
 * The agent's tarball (lockstep-agent-VERSION-linux-amd64.tar.gz, from {@code mvn -B package
 * -Pdist}): the agent on its own Java runtime, for nodes without a Java 17. It is unpacked on a
 * node into a directory named by its content ({@code remoteName}), so it is copied and unpacked
 * once, and an agent running from it is never overwritten.
 */
public record AgentTarball(Path path, String remoteName) {
  static final String PREFIX = "lockstep-agent-";
  static final String SUFFIX = "-linux-amd64.tar.gz";

  /** Where the launcher runs inside the unpacked tarball. */
  static final String LAUNCHER = "usr/lib/lockstep-agent/bin/lockstep-agent";

  public static AgentTarball of(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new ScenarioException(
          "--agent-tarball: " + path + " is not a file (build it with mvn -B package -Pdist)");
    }
    return new AgentTarball(
        path, PREFIX + FileDigest.sha256(path, "--agent-tarball").substring(0, 12));
  }

  /**
   * The tarball beside the running coordinator (an installation) or in dist/target of the source
   * tree, the newest if there are several; empty when there is none.
   */
  public static Optional<AgentTarball> locate() {
    try {
      return locateFrom(
          Path.of(AgentTarball.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (java.net.URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** {@link #locate()} for a coordinator whose code is at {@code codeLocation}. */
  static Optional<AgentTarball> locateFrom(Path codeLocation) {
    Path dir = codeLocation.toAbsolutePath().getParent();
    List<Path> dirs = new ArrayList<>(List.of(dir));
    if (dir.getParent() != null && dir.getParent().getParent() != null) {
      dirs.add(dir.getParent().getParent().resolve("dist/target"));
    }
    for (Path d : dirs) {
      Optional<Path> newest = DistFiles.newest(d, PREFIX, SUFFIX);
      if (newest.isPresent()) {
        return Optional.of(of(newest.get().normalize()));
      }
    }
    return Optional.empty();
  }
}

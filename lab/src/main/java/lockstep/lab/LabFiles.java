package lockstep.lab;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.launch.DistFiles;

/**
 * The files of the source tree the lab uses: deploy/lab (the guest image's recipe and the stack
 * scripts), deploy/ansible (how the agents are installed), the coordinator's and the lab's jar, and
 * the agent's .deb (dist/target, {@code mvn -B package -Pdist}): the guests get their agents as a
 * node does, the package through the playbook.
 */
public record LabFiles(Path repo, Path coordinatorJar, Path labJar) {
  static final String PACKAGE_PREFIX = "lockstep-agent_";
  static final String PACKAGE_SUFFIX = "_amd64.deb";

  /**
   * {@code lockstep ARGS...} as a process: the coordinator's jar with the lab's beside it, so that
   * a run on the lab's inventory finds the lab's fault injector. A lab's coordinator drives a few
   * guests for seconds, on the host whose cores also run the guests: C1 only and the serial
   * collector halve its CPU (a tiny two-agent run 5.6 -> 3.1 s, user + system, A B B A).
   */
  public List<String> lockstep(List<String> args) {
    List<String> c =
        new ArrayList<>(
            List.of(
                "java",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                coordinatorJar + File.pathSeparator + labJar,
                "lockstep.coordinator.cli.LockstepCli"));
    c.addAll(args);
    return c;
  }

  public Path image() {
    return repo.resolve("deploy/lab/image");
  }

  public Path guestScript() {
    return repo.resolve("deploy/lab/guest/lab-node.sh");
  }

  /**
   * The C lock programs the guest image carries, in the recipe's order; each is compiled to a
   * static binary named as its source without ".c".
   */
  public List<Path> guestPrograms() {
    return List.of(
        repo.resolve("deploy/lab/guest/lockbench.c"), repo.resolve("bench/c/lock_files.c"));
  }

  public Path playbook() {
    return repo.resolve("deploy/ansible/site.yml");
  }

  /** The tree the running coordinator belongs to (its jar or classes under coordinator/target). */
  public static LabFiles locate() {
    Path self;
    try {
      self = Path.of(LabFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new LabException("cannot tell where the coordinator runs from: " + e.getMessage());
    }
    return from(self);
  }

  static LabFiles from(Path codeLocation) {
    Path target = codeLocation.toAbsolutePath().normalize().getParent();
    Path repo = null;
    for (Path p = target; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("deploy/lab/image/packages.txt"))) {
        repo = p;
        break;
      }
    }
    if (repo == null) {
      throw new LabException(
          "lockstep lab needs the source tree (deploy/lab, deploy/ansible) and found none above "
              + target
              + ": run ./lockstep lab from a clone");
    }
    Path jar = repo.resolve("coordinator/target/lockstep.jar");
    if (!Files.isRegularFile(jar)) {
      throw new LabException(
          jar + " is missing: build it with mvn -DskipTests package (./lockstep does that)");
    }
    Path lab = repo.resolve("lab/target/lockstep-lab.jar");
    if (!Files.isRegularFile(lab)) {
      throw new LabException(
          lab + " is missing: build it with mvn -DskipTests package (./lockstep does that)");
    }
    return new LabFiles(repo, jar, lab);
  }

  /**
   * The agent's newest .deb in dist/target; asked for only when agents are deployed (a lab is taken
   * down, or its image built, without one).
   */
  public Path agentPackage() {
    Path agent = repo.resolve("agent/target/lockstep-agent.jar");
    Path deb = newestPackage(repo.resolve("dist/target"));
    String build = "build it with mvn -B -DskipTests package -Pdist (./lockstep lab does that)";
    if (deb == null) {
      throw new LabException("no agent package (dist/target/lockstep-agent_*_amd64.deb): " + build);
    }
    if (Files.isRegularFile(agent) && modified(agent).compareTo(modified(deb)) > 0) {
      throw new LabException(
          deb + " is older than the agent's jar (" + agent + "): " + build + " again");
    }
    return deb;
  }

  /** The newest lockstep-agent_*_amd64.deb in {@code dir}; null when there is none. */
  static Path newestPackage(Path dir) {
    return DistFiles.newest(dir, PACKAGE_PREFIX, PACKAGE_SUFFIX).orElse(null);
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }
}

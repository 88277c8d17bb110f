package lockstep.coordinator.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import lockstep.testsupport.Required;

/**
 * The common file system of a container cluster: a unique directory on the GlusterFS volume
 * (LOCKSTEP_GLUSTER_MOUNTS: one FUSE client per mount, node i gets mount i mod n), or a host
 * temporary directory. Containers bind-mount their host path at {@link #CONTAINER_PATH}.
 */
final class SharedDir implements AutoCloseable {
  static final String CONTAINER_PATH = "/shared";

  private final List<Path> mounts;
  private final String subdir;
  private final Path tempParent;

  private SharedDir(List<Path> mounts, String subdir, Path tempParent) {
    this.mounts = mounts;
    this.subdir = subdir;
    this.tempParent = tempParent;
  }

  static SharedDir create(String prefix) throws IOException {
    String subdir = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    String env = System.getenv("LOCKSTEP_GLUSTER_MOUNTS");
    if (env != null && !env.isBlank()) {
      List<Path> mounts = new ArrayList<>();
      for (String m : env.split(",")) {
        Path p = Path.of(m.trim());
        if (!Files.isDirectory(p)) {
          Requirements.missing(
              "LOCKSTEP_GLUSTER_MOUNTS names "
                  + p
                  + ", which is not a directory (scripts/ci/gluster-up.sh)");
        }
        mounts.add(p);
      }
      Files.createDirectory(mounts.get(0).resolve(subdir));
      return new SharedDir(List.copyOf(mounts), subdir, null);
    }
    if (Required.ci()) {
      Requirements.missing(
          "LOCKSTEP_GLUSTER_MOUNTS is not set (the container tests use the GlusterFS volume in"
              + " CI)");
    }
    System.out.println(
        "LOCKSTEP_GLUSTER_MOUNTS not set: the shared file system is a host temporary directory");
    Path tmp = Files.createTempDirectory("lockstep-shared");
    Files.createDirectory(tmp.resolve(subdir));
    return new SharedDir(List.of(tmp), subdir, tmp);
  }

  boolean gluster() {
    return tempParent == null;
  }

  /** What node {@code i} (0-based) bind-mounts at /shared. */
  Path hostMountFor(int i) {
    return mounts.get(i % mounts.size());
  }

  /** The agents' root inside every container. */
  String containerRoot() {
    return CONTAINER_PATH + "/" + subdir;
  }

  /** The directory as the host sees it (through the first mount). */
  Path hostPath() {
    return mounts.get(0).resolve(subdir);
  }

  /** Entries left under the directory (relative paths), for "files cleaned" checks. */
  List<String> leftovers() throws IOException {
    try (Stream<Path> s = Files.walk(hostPath())) {
      return s.filter(p -> !p.equals(hostPath()))
          .map(p -> hostPath().relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  @Override
  public void close() throws IOException {
    Path top = tempParent != null ? tempParent : hostPath();
    if (Files.exists(top)) {
      try (Stream<Path> s = Files.walk(top)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}

package lockstep.coordinator.workloads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import lockstep.testsupport.Required;

/**
 * The two FUSE mounts of one GlusterFS volume that CI provides (LOCKSTEP_GLUSTER_MOUNTS). In CI
 * (CI=true) their absence fails the test; elsewhere the test is skipped with one line.
 */
final class GlusterMounts {
  private GlusterMounts() {}

  static List<Path> require() {
    String env = System.getenv("LOCKSTEP_GLUSTER_MOUNTS");
    List<Path> mounts =
        env == null
            ? List.of()
            : Arrays.stream(env.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(Path::of)
                .toList();
    String problem = null;
    if (mounts.size() < 2) {
      problem =
          "LOCKSTEP_GLUSTER_MOUNTS does not name two GlusterFS mounts (got '"
              + env
              + "'); scripts/ci/gluster-up.sh sets them up";
    } else if (!mounts.stream().allMatch(Files::isDirectory)) {
      problem = "a mount in LOCKSTEP_GLUSTER_MOUNTS=" + env + " is not a directory";
    }
    if (problem != null) {
      Required.missing("GlusterFS mounts: " + problem);
    }
    return mounts.subList(0, 2);
  }
}

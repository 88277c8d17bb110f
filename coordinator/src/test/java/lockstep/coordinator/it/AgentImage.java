package lockstep.coordinator.it;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The agent image, built from deploy/docker/Dockerfile: the agent's .deb (dist/target, -Pdist) on
 * the Java-free Debian node image (LOCKSTEP_DEBIAN_IMAGE, default lockstep/debian12:local from
 * scripts/ci/debian-image.sh), and the coordinator's jar. Tagged lockstep/agent-it:HASH
 * (Dockerfile, package, jar, base image id), so an unchanged build is reused; older tags are
 * removed.
 */
final class AgentImage {
  private static final String REPO = "lockstep/agent-it";
  private static final Logger LOG = LogManager.getLogger(AgentImage.class);
  private static String built;

  private AgentImage() {}

  static synchronized String get() throws IOException {
    if (built != null) {
      return built;
    }
    String base = DebianNode.image();
    Requirements.image(base, "scripts/ci/debian-image.sh builds it; or set LOCKSTEP_DEBIAN_IMAGE");
    Path deb = RepoFiles.agentDeb();
    DockerClient docker = DockerClientFactory.instance().client();
    Path root = RepoFiles.root();
    Path dockerfile = root.resolve("deploy/docker/Dockerfile");
    String baseId = docker.inspectImageCmd(base).exec().getId();
    String tag = REPO + ":" + hash(dockerfile, deb, RepoFiles.coordinatorJar(), baseId);
    try {
      docker.inspectImageCmd(tag).exec();
      LOG.info("agent image {} already built", tag);
    } catch (NotFoundException e) {
      long t0 = System.nanoTime();
      new ImageFromDockerfile(tag, false)
          .withFileFromPath("deploy/docker/Dockerfile", dockerfile)
          .withFileFromPath("dist/target/" + deb.getFileName(), deb)
          .withFileFromPath("coordinator/target/lockstep.jar", RepoFiles.coordinatorJar())
          .withDockerfilePath("deploy/docker/Dockerfile")
          .withBuildArg("BASE_IMAGE", base)
          .get();
      LOG.info(
          "built agent image {} from {} in {} ms", tag, base, (System.nanoTime() - t0) / 1_000_000);
      removeOlder(docker, tag);
    }
    built = tag;
    return tag;
  }

  private static void removeOlder(DockerClient docker, String keep) {
    docker
        .listImagesCmd()
        .withReferenceFilter(REPO)
        .exec()
        .forEach(
            img -> {
              if (img.getRepoTags() != null) {
                for (String t : img.getRepoTags()) {
                  if (!t.equals(keep)) {
                    try {
                      docker.removeImageCmd(t).exec();
                    } catch (RuntimeException e) {
                      LOG.info("old agent image {} not removed: {}", t, e.getMessage());
                    }
                  }
                }
              }
            });
  }

  private static String hash(Path dockerfile, Path agentDeb, Path coordinatorJar, String baseId)
      throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (Path p : new Path[] {dockerfile, agentDeb, coordinatorJar}) {
        try (InputStream in = Files.newInputStream(p)) {
          byte[] buf = new byte[1 << 16];
          for (int n; (n = in.read(buf)) > 0; ) {
            md.update(buf, 0, n);
          }
        }
      }
      md.update(baseId.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(md.digest()).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

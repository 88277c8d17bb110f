package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A Debian 12 node without Java (image lockstep/debian12:local, scripts/ci/debian-image.sh) booted
 * with systemd as PID 1, host networking (its services listen on the host's loopback), the
 * directory {@code packages} read-only at /packages.
 */
final class DebianNode implements AutoCloseable {
  static final String DEFAULT_IMAGE = "lockstep/debian12:local";
  static final String PACKAGES = "/packages";

  final GenericContainer<?> container;

  private DebianNode(GenericContainer<?> container) {
    this.container = container;
  }

  static String image() {
    String env = System.getenv("LOCKSTEP_DEBIAN_IMAGE");
    return env == null || env.isBlank() ? DEFAULT_IMAGE : env;
  }

  @SuppressWarnings("resource")
  static DebianNode boot(Path packages) {
    GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(image()))
            .withNetworkMode("host")
            // systemd as PID 1 in a container: its own /run, the host's cgroups (read-only)
            .withTmpFs(Map.of("/run", "rw", "/run/lock", "rw"))
            .withFileSystemBind("/sys/fs/cgroup", "/sys/fs/cgroup", BindMode.READ_ONLY)
            .withFileSystemBind(packages.toString(), PACKAGES, BindMode.READ_ONLY)
            .withCommand("/sbin/init")
            .withLogConsumer(
                new Slf4jLogConsumer(LoggerFactory.getLogger("debian-node")).withPrefix("node"))
            .waitingFor(
                Wait.forSuccessfulCommand(
                        "systemctl is-system-running --wait | grep -qE '^(running|degraded)$'")
                    .withStartupTimeout(Duration.ofSeconds(90)));
    c.start();
    return new DebianNode(c);
  }

  /** Runs {@code script} with sh in the node; the result, whatever its exit code. */
  ExecResult sh(String script) throws IOException, InterruptedException {
    ExecResult r = container.execInContainer("sh", "-c", script);
    System.out.println(
        "node$ "
            + script
            + "\n"
            + r.getStdout()
            + r.getStderr()
            + "(exit "
            + r.getExitCode()
            + ")");
    return r;
  }

  /** {@link #sh}, which must succeed; its standard output. */
  String ok(String script) throws IOException, InterruptedException {
    ExecResult r = sh(script);
    assertThat(r.getExitCode()).as("%s: %s%s", script, r.getStdout(), r.getStderr()).isZero();
    return r.getStdout();
  }

  @Override
  public void close() {
    container.stop();
  }
}

package lockstep.coordinator.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A "node" reachable only over SSH: a container of the sshd test image (JRE 17 + OpenSSH server),
 * host networking, sshd on a loopback port, key login for root with the test's key, the shared
 * directory at /shared. sshd cannot pick its own port, so the port is a free one found by binding
 * port 0; if another process takes it first, sshd fails to start and we try another.
 */
final class SshdNode implements AutoCloseable {
  static final String DEFAULT_IMAGE = "lockstep/sshd-jre17:local";
  private static final String KEYS = "/etc/lockstep-it/authorized_keys";

  final String alias;
  final int port;
  final GenericContainer<?> container;

  private SshdNode(String alias, int port, GenericContainer<?> container) {
    this.alias = alias;
    this.port = port;
    this.container = container;
  }

  static String image() {
    String env = System.getenv("LOCKSTEP_SSHD_IMAGE");
    return env == null || env.isBlank() ? DEFAULT_IMAGE : env;
  }

  static SshdNode start(String alias, Path authorizedKeys, Path sharedMount) throws IOException {
    return start(image(), alias, authorizedKeys, sharedMount);
  }

  @SuppressWarnings("resource")
  static SshdNode start(String image, String alias, Path authorizedKeys, Path sharedMount)
      throws IOException {
    ContainerLaunchException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freeLoopbackPort();
      GenericContainer<?> c =
          new GenericContainer<>(DockerImageName.parse(image))
              .withNetworkMode("host")
              .withFileSystemBind(authorizedKeys.toString(), KEYS, BindMode.READ_ONLY)
              .withFileSystemBind(
                  sharedMount.toString(), SharedDir.CONTAINER_PATH, BindMode.READ_WRITE)
              .withCommand(
                  "/usr/sbin/sshd",
                  "-D",
                  "-e",
                  "-p",
                  String.valueOf(port),
                  "-o",
                  "ListenAddress=127.0.0.1",
                  "-o",
                  "AuthorizedKeysFile=" + KEYS,
                  "-o",
                  "PasswordAuthentication=no",
                  "-o",
                  "StrictModes=no")
              .withLogConsumer(
                  new Slf4jLogConsumer(LoggerFactory.getLogger("sshd")).withPrefix(alias))
              .waitingFor(
                  Wait.forLogMessage(
                          "(?s).*Server listening on 127\\.0\\.0\\.1 port " + port + ".*", 1)
                      .withStartupTimeout(Duration.ofSeconds(30)));
      try {
        c.start();
        return new SshdNode(alias, port, c);
      } catch (ContainerLaunchException e) {
        last = e;
        c.stop();
      }
    }
    throw last;
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Whether a process whose command line mentions the agent jar runs in this node. */
  boolean agentRunning() throws IOException, InterruptedException {
    return container.execInContainer("pgrep", "-f", "lockstep-agent").getExitCode() == 0;
  }

  @Override
  public void close() {
    container.stop();
  }
}

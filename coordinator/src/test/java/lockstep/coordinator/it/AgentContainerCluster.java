package lockstep.coordinator.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lockstep.common.ListeningLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * N agent containers, each a "node" with its own root file system and process table, all with host
 * networking and listening on a loopback port the agent picked itself (read back from its
 * "listening on" line). They share {@link SharedDir} at /shared; the agents' root is in it. Every
 * container's output goes to the test log with the node name as prefix.
 */
final class AgentContainerCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("cluster");

  private final List<GenericContainer<?>> containers;
  private final List<String> names;
  private final List<String> addresses;

  private AgentContainerCluster(
      List<GenericContainer<?>> containers, List<String> names, List<String> addresses) {
    this.containers = containers;
    this.names = names;
    this.addresses = addresses;
  }

  @SuppressWarnings("resource")
  static AgentContainerCluster start(String image, int nodes, SharedDir shared) {
    List<GenericContainer<?>> containers = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      String name = "node" + (i + 1);
      names.add(name);
      containers.add(
          new GenericContainer<>(DockerImageName.parse(image))
              .withNetworkMode("host")
              .withFileSystemBind(
                  shared.hostMountFor(i).toString(), SharedDir.CONTAINER_PATH, BindMode.READ_WRITE)
              .withCommand(
                  "--listen", "127.0.0.1:0", "--root", shared.containerRoot(), "--name", name)
              .withLogConsumer(new Slf4jLogConsumer(LOG).withPrefix(name))
              .waitingFor(
                  Wait.forLogMessage("(?s).*listening on 127\\.0\\.0\\.1:\\d+.*", 1)
                      .withStartupTimeout(Duration.ofSeconds(120))));
    }
    try {
      Startables.deepStart(containers).join();
      List<String> addresses = new ArrayList<>();
      for (GenericContainer<?> c : containers) {
        int port =
            ListeningLine.parse(c.getLogs(OutputFrame.OutputType.STDOUT))
                .map(ListeningLine.Bound::port)
                .orElseThrow(
                    () -> new IllegalStateException("no listening line in " + c.getLogs()));
        addresses.add("127.0.0.1:" + port);
      }
      LOG.info("cluster of {} agent containers: {}", nodes, addresses);
      return new AgentContainerCluster(containers, names, addresses);
    } catch (RuntimeException e) {
      containers.forEach(GenericContainer::stop);
      throw e;
    }
  }

  List<String> names() {
    return names;
  }

  List<String> addresses() {
    return addresses;
  }

  List<GenericContainer<?>> containers() {
    return containers;
  }

  @Override
  public void close() {
    containers.forEach(GenericContainer::stop);
  }
}

package lockstep.coordinator.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.common.ListeningLine;
import lockstep.coordinator.launch.AgentJar;

/**
 * Real agent processes on loopback, each with its own root directory, started from the agent jar
 * ({@link AgentJar#locate()}: beside the coordinator's jar, or agent/target/ of the source tree):
 * the demo's "cluster" and the integration tests' nodes.
 */
public final class LocalAgents implements AutoCloseable {
  private static final long START_TIMEOUT_SECONDS = 60;

  private final List<Process> processes = new ArrayList<>();
  private final List<String> addresses = new ArrayList<>();
  private final List<Path> roots = new ArrayList<>();

  private final AgentJar jar;

  private LocalAgents(AgentJar jar) {
    this.jar = jar;
  }

  /**
   * Starts agents node1..nodeN with roots WORK/nodeI and logs WORK/nodeI.log; ports picked by the
   * OS.
   */
  public static LocalAgents start(int count, Path workDir) throws IOException {
    AgentJar jar = AgentJar.locate(); // before any directory is made
    List<Path> roots = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      Path root = workDir.resolve("node" + i);
      Files.createDirectories(root);
      roots.add(root);
    }
    return start(jar, nodes(roots, workDir));
  }

  /** Starts one agent per root, named node1..nodeN, logs in logDir. */
  public static LocalAgents start(List<Path> roots, Path logDir) throws IOException {
    return start(nodes(roots, logDir));
  }

  private static List<Node> nodes(List<Path> roots, Path logDir) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < roots.size(); i++) {
      nodes.add(
          new Node(
              "node" + (i + 1),
              roots.get(i),
              logDir.resolve("node" + (i + 1) + ".log"),
              List.of()));
    }
    return nodes;
  }

  /**
   * One local agent: its name, root, log file, a command the agent's JVM is started under (e.g.
   * {@code setpriv ...} or {@code prlimit ...}; empty for none), and more agent options (e.g.
   * {@code --tls-cert ...}).
   */
  public record Node(
      String name, Path root, Path log, List<String> commandPrefix, List<String> agentArgs) {
    public Node(String name, Path root, Path log, List<String> commandPrefix) {
      this(name, root, log, commandPrefix, List.of());
    }
  }

  /**
   * Starts the nodes from the agent jar found by {@link AgentJar#locate()}; a missing jar is a
   * one-line ScenarioException.
   */
  public static LocalAgents start(List<Node> nodes) throws IOException {
    return start(AgentJar.locate(), nodes);
  }

  public static LocalAgents start(AgentJar jar, List<Node> nodes) throws IOException {
    LocalAgents agents = new LocalAgents(jar);
    try {
      for (Node n : nodes) {
        agents.launch(n);
      }
      return agents;
    } catch (IOException | RuntimeException e) {
      agents.close();
      throw e;
    }
  }

  private void launch(Node node) throws IOException {
    String name = node.name();
    Path root = node.root();
    Path log = node.log();
    List<String> cmd = new ArrayList<>(node.commandPrefix());
    cmd.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xmx256m",
            "-jar",
            jar.path().toString(),
            "--listen",
            "127.0.0.1:0",
            "--root",
            root.toString(),
            "--name",
            name));
    cmd.addAll(node.agentArgs());
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    processes.add(p);
    roots.add(root);
    CompletableFuture<String> address = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  var bound = ListeningLine.parse(line);
                  if (bound.isPresent() && !address.isDone()) {
                    address.complete(bound.get().address());
                  }
                }
              } catch (IOException ignored) {
                // process gone
              }
              address.completeExceptionally(
                  new IOException("agent " + name + " exited before listening; see " + log));
            },
            "agent-" + name + "-stdout");
    reader.setDaemon(true);
    reader.start();
    try {
      addresses.add(address.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException(
          "agent "
              + name
              + " did not start listening within "
              + START_TIMEOUT_SECONDS
              + " s; see "
              + log);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting agent " + name);
    }
  }

  public List<String> addresses() {
    return List.copyOf(addresses);
  }

  public List<Path> roots() {
    return List.copyOf(roots);
  }

  public List<Long> pids() {
    return processes.stream().map(Process::pid).toList();
  }

  /** Stops every agent (SIGTERM lets it clean up its runs), killing any that does not exit. */
  @Override
  public void close() {
    processes.forEach(Process::destroy);
    for (Process p : processes) {
      try {
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}

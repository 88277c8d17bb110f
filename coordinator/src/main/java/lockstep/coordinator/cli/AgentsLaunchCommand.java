package lockstep.coordinator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryNode;
import lockstep.coordinator.launch.AgentJar;
import lockstep.coordinator.launch.AgentLauncher;
import lockstep.coordinator.launch.AgentTarball;
import lockstep.coordinator.launch.LaunchSpec;
import lockstep.coordinator.launch.LaunchedAgent;
import lockstep.coordinator.launch.SshTarget;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lockstep agents launch --ssh user@host,... --root DIR [--port 7070]}, or {@code
 * --inventory FILE}.
 */
@Command(
    name = "launch",
    description =
        "Copy the agent to nodes with scp, start it there (detached) and wait until it answers."
            + " A node without Java 17 gets the agent's tarball, with its own runtime.")
final class AgentsLaunchCommand implements Callable<Integer> {
  @Mixin SshLaunchOptions nodes;

  @Option(
      names = "--root",
      paramLabel = "DIR",
      description =
          "The agents' root on the cluster file system (with --ssh; an inventory names each"
              + " node's).")
  String root;

  @Option(
      names = "--port",
      defaultValue = "7070",
      paramLabel = "PORT",
      description =
          "Port the agents listen on, with --ssh; 0 lets each pick a free one (default:"
              + " ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--bind",
      defaultValue = "0.0.0.0",
      paramLabel = "HOST",
      description = "Address the agents listen on (default: ${DEFAULT-VALUE}, every interface).")
  String bind;

  @Option(
      names = "--insecure",
      description =
          "Start the agents with --insecure: plaintext, unauthenticated gRPC on a non-loopback"
              + " --bind (without it such agents refuse to start; for TLS install agents with the"
              + " deploy files, docs/operations.md).")
  boolean insecure;

  @Option(
      names = "--java",
      defaultValue = "java",
      paramLabel = "PATH",
      description =
          "Java 17+ on the nodes (default: ${DEFAULT-VALUE}); a node where it is missing or older"
              + " gets the agent's tarball instead.")
  String java;

  @Option(
      names = "--agent-jar",
      paramLabel = "FILE",
      description = "Agent jar to copy (default: the one built next to this coordinator).")
  Path agentJar;

  @Option(
      names = "--agent-tarball",
      paramLabel = "FILE",
      description =
          "The agent's tarball (lockstep-agent-VERSION-linux-amd64.tar.gz, mvn -B package -Pdist),"
              + " unpacked on nodes without Java 17 (default: the one built next to this"
              + " coordinator).")
  Path agentTarball;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    List<LaunchSpec> specs = specs();
    AgentJar jar = agentJar != null ? AgentJar.of(agentJar) : AgentJar.locate();
    Optional<AgentTarball> tarball =
        agentTarball != null ? Optional.of(AgentTarball.of(agentTarball)) : AgentTarball.locate();
    AgentLauncher launcher = new AgentLauncher(nodes.client());
    var out = launcher.launch(specs, jar, tarball);
    List<String> addresses = new ArrayList<>();
    out.done()
        .forEach(
            (label, a) -> {
              System.out.printf(
                  "%s: agent pid %d, node %s, answers at %s (log %s%s)%n",
                  label,
                  a.pid(),
                  a.nodeName(),
                  a.address(),
                  a.log(),
                  a.bundled() ? "; no Java 17 there: on the tarball's own runtime" : "");
              addresses.add(a.address());
            });
    if (out.ok()) {
      System.out.println("agents: " + String.join(",", addresses));
      return 0;
    }
    var err = spec.commandLine().getErr();
    out.failed().values().forEach(m -> err.println("lockstep: launch failed: " + m));
    if (!out.done().isEmpty()) {
      List<SshTarget> started =
          out.done().values().stream().map(LaunchedAgent::target).distinct().toList();
      var stopped = launcher.stop(started, nodes.remoteDir);
      stopped
          .done()
          .forEach(
              (t, what) ->
                  err.println("lockstep: " + t + ": " + what + " (launch failed elsewhere)"));
      stopped.failed().values().forEach(m -> err.println("lockstep: could not stop: " + m));
    }
    err.flush();
    return LockstepCli.EXIT_RUN_FAILED;
  }

  private List<LaunchSpec> specs() {
    Inventory inv = nodes.inventory();
    List<LaunchSpec> specs = new ArrayList<>();
    if (inv != null) {
      if (root != null) {
        throw new ScenarioException(
            "--root: with --inventory each node's root comes from the inventory");
      }
      for (InventoryNode n : inv.nodes()) {
        specs.add(
            new LaunchSpec(
                new SshTarget(SshLaunchOptions.sshOf(n)),
                n.root(),
                n.name(),
                bind,
                n.port(),
                nodes.remoteDir,
                java,
                n.host(),
                insecure));
      }
      return specs;
    }
    if (root == null || !root.startsWith("/")) {
      throw new ScenarioException(
          "--root: give the agents' root, an absolute path on the nodes"
              + (root == null ? "" : " ('" + root + "' is not)"));
    }
    if (port < 0 || port > 65535) {
      throw new ScenarioException("--port: " + port + " is outside 0..65535");
    }
    Set<String> seen = new HashSet<>();
    for (String s : nodes.ssh) {
      SshTarget t = new SshTarget(s.trim());
      if (!seen.add(t.spec())) {
        throw new ScenarioException("--ssh: '" + t + "' is listed twice");
      }
      specs.add(
          new LaunchSpec(
              t, root, t.defaultNodeName(), bind, port, nodes.remoteDir, java, null, insecure));
    }
    return specs;
  }
}

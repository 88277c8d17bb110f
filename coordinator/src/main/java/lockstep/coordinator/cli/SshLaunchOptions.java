package lockstep.coordinator.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryNode;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.coordinator.launch.SshClient;
import lockstep.coordinator.launch.SshTarget;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options shared by {@code agents launch} and {@code agents stop}: which nodes, how to reach them.
 */
final class SshLaunchOptions {
  static final String DEFAULT_REMOTE_DIR = ".lockstep";

  @Option(
      names = "--ssh",
      split = ",",
      paramLabel = "[USER@]HOST",
      description = "Nodes to reach with ssh (names may be aliases of your ssh configuration).")
  List<String> ssh;

  @Mixin InventoryOption inventory = new InventoryOption();

  @Option(
      names = "--ssh-config",
      paramLabel = "FILE",
      description = "ssh configuration file (ssh -F); default: ssh's own, ~/.ssh/config.")
  Path sshConfig;

  @Option(
      names = "--remote-dir",
      defaultValue = DEFAULT_REMOTE_DIR,
      paramLabel = "DIR",
      description =
          "Directory on each node for the jar, pid file and log; relative to the remote home"
              + " (default: ${DEFAULT-VALUE}).")
  String remoteDir;

  SshClient client() {
    if (sshConfig != null && !Files.isRegularFile(sshConfig)) {
      throw new ScenarioException("--ssh-config: " + sshConfig + " is not a file");
    }
    return new SshClient(sshConfig, 10);
  }

  /** The inventory's nodes, or null when --ssh is used. */
  Inventory inventory() {
    if ((ssh == null) == (inventory.file == null)) {
      throw new ScenarioException("give --ssh [USER@]HOST,... or --inventory FILE (one of them)");
    }
    if (remoteDir.isBlank() || remoteDir.contains("\n")) {
      throw new ScenarioException("--remote-dir: '" + remoteDir + "' is not a directory name");
    }
    return inventory.file == null ? null : new InventoryParser().parse(inventory.file);
  }

  List<SshTarget> targets() {
    Inventory inv = inventory();
    List<String> specs =
        inv == null ? ssh : inv.nodes().stream().map(SshLaunchOptions::sshOf).toList();
    List<SshTarget> out = new ArrayList<>();
    for (String s : new LinkedHashSet<>(specs)) {
      out.add(new SshTarget(s.trim()));
    }
    return out;
  }

  static String sshOf(InventoryNode n) {
    return n.ssh() != null ? n.ssh() : n.host();
  }
}

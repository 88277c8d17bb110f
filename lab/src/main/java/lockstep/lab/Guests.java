package lockstep.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Commands in the guests, as root over ssh from inside the lab's namespace (the lab's key, a strict
 * known_hosts of the image's host key). Stack steps are subcommands of
 * deploy/lab/guest/lab-node.sh, which is fed to {@code sh -s} each time (so a change to it needs no
 * new image).
 */
final class Guests {
  private final String namespace;
  private final Path sshKey;
  private final Path knownHosts;
  private final String script;
  private final Commands commands;

  Guests(String namespace, Path sshKey, Path knownHosts, Path scriptFile, Commands commands) {
    this.namespace = namespace;
    this.sshKey = sshKey;
    this.knownHosts = knownHosts;
    this.commands = commands;
    try {
      this.script = Files.readString(scriptFile);
    } catch (IOException e) {
      throw new LabException("cannot read " + scriptFile + ": " + e.getMessage());
    }
  }

  /** The guests of the lab in {@code state}. */
  static Guests of(LabState state, LabPaths paths, LabFiles files, Commands commands) {
    return new Guests(
        state.namespace(),
        Path.of(state.sshKey()),
        paths.knownHosts(),
        files.guestScript(),
        commands);
  }

  /** ssh's options for the lab's guests (also Ansible's). */
  static List<String> sshOptions(Path sshKey, Path knownHosts) {
    // sshd's banner from a guest busy starting JVMs (its agents, their rehearsal workers) took
    // more than 5 s under emulation: a node counted unreachable that was only slow
    return sshOptions(sshKey, knownHosts, 30);
  }

  static List<String> sshOptions(Path sshKey, Path knownHosts, int connectSeconds) {
    return List.of(
        "-i", sshKey.toString(),
        "-o", "IdentitiesOnly=yes",
        "-o", "UserKnownHostsFile=" + knownHosts,
        "-o", "StrictHostKeyChecking=yes",
        "-o", "BatchMode=yes",
        "-o", "ConnectTimeout=" + connectSeconds,
        "-o", "ServerAliveInterval=5",
        "-o", "ServerAliveCountMax=12",
        "-o", "LogLevel=ERROR");
  }

  List<String> ssh(LabNode n, List<String> remote) {
    return ssh(n, remote, sshOptions(sshKey, knownHosts));
  }

  private List<String> ssh(LabNode n, List<String> remote, List<String> options) {
    List<String> c = new ArrayList<>(List.of("ssh"));
    c.addAll(options);
    c.addAll(List.of("-p", Integer.toString(n.sshPort()), "root@127.0.0.1"));
    c.addAll(remote);
    return Netns.exec(namespace, c);
  }

  /** Runs a subcommand of lab-node.sh on node n. */
  Commands.Result step(LabNode n, Duration timeout, String... args) {
    List<String> remote = new ArrayList<>(List.of("sh", "-s", "--"));
    remote.addAll(List.of(args));
    return commands.run(ssh(n, remote), script, timeout, null);
  }

  /** The step on node n; a failure is one line naming the node and the step. */
  String must(LabNode n, Duration timeout, String... args) {
    Commands.Result r = step(n, timeout, args);
    if (!r.ok()) {
      throw new LabException(n.name() + ": " + args[0] + " failed: " + r.lastLine());
    }
    return r.stdout();
  }

  /** The step on each of {@code nodes} at once; the first failure is thrown once all ended. */
  Map<LabNode, String> each(List<LabNode> nodes, Duration timeout, String... args) {
    return Parallel.each(nodes, n -> must(n, timeout, args));
  }

  /** True once sshd answers on node n (one bounded try). */
  boolean answers(LabNode n) {
    try {
      // while a guest boots, slirp takes the connection and sshd is not there yet: a short bound
      // per try, so that the first try after sshd is up finds it
      return commands
          .run(
              ssh(n, List.of("true"), sshOptions(sshKey, knownHosts, 5)),
              "",
              Duration.ofSeconds(15),
              null)
          .ok();
    } catch (LabInterruptedException e) {
      throw e;
    } catch (LabException e) {
      return false;
    }
  }
}

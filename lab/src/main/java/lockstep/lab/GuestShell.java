package lockstep.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code lab ssh NODE [COMMAND]}: root on one guest (a shell on this terminal, or the command with
 * its output printed here), or {@code all} ({@code clients}, or NODE,NODE...): the command on every
 * guest (client, named node) at once, each line of output prefixed with its node.
 */
final class GuestShell {
  /** The node name that means every guest. */
  static final String ALL_NODES = "all";

  /** ... every client: the nodes that mount the stacks (a server's none). */
  static final String ALL_CLIENTS = "clients";

  private static final Duration BOUND = Duration.ofHours(1);

  private final Guests guests;
  private final Commands commands;
  private final PrintStream out;

  GuestShell(Guests guests, Commands commands, PrintStream out) {
    this.guests = guests;
    this.commands = commands;
    this.out = out;
  }

  /** ssh's exit code (with {@code all}: the first non-zero one). */
  int run(LabState state, String node, List<String> command) {
    if (ALL_NODES.equals(node) || ALL_CLIENTS.equals(node)) {
      if (command.isEmpty()) {
        throw new LabException(
            "lab ssh "
                + node
                + " needs a COMMAND (a shell is one node's: "
                + StackUp.names(state.nodes())
                + ")");
      }
      return all(ALL_NODES.equals(node) ? state.nodes() : state.clients(), command);
    }
    if (node.contains(",")) {
      if (command.isEmpty()) {
        throw new LabException("lab ssh " + node + " needs a COMMAND (a shell is one node's)");
      }
      return all(Arrays.stream(node.split(",")).map(state::node).distinct().toList(), command);
    }
    LabNode n = state.node(node);
    if (command.isEmpty()) {
      try {
        return new ProcessBuilder(guests.ssh(n, List.of("-t"))).inheritIO().start().waitFor();
      } catch (IOException e) {
        throw new LabException("cannot run ssh: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LabException("interrupted");
      }
    }
    Commands.Result r = once(n, command);
    out.print(r.stdout());
    out.flush();
    System.err.print(r.stderr());
    return r.exitCode();
  }

  private Commands.Result once(LabNode n, List<String> command) {
    return commands.run(guests.ssh(n, List.of(String.join(" ", command))), "", BOUND, null);
  }

  private int all(List<LabNode> nodes, List<String> command) {
    Map<LabNode, Commands.Result> results = Parallel.each(nodes, n -> once(n, command));
    int rc = 0;
    for (var e : results.entrySet()) {
      String name = e.getKey().name();
      Commands.Result r = e.getValue();
      r.stdout().lines().forEach(l -> out.println(name + ": " + l));
      r.stderr().lines().forEach(l -> System.err.println(name + ": " + l));
      rc = rc != 0 ? rc : r.exitCode();
    }
    out.flush();
    return rc;
  }
}

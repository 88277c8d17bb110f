package lockstep.lab;

import java.io.PrintStream;
import java.time.Duration;
import java.util.TreeMap;

/** {@code lab status}: the lab's processes, stacks and settings, and each guest's own account. */
final class LabStatus {
  private final LabPaths paths;
  private final Guests guests;
  private final PrintStream out;

  LabStatus(LabPaths paths, Guests guests, PrintStream out) {
    this.paths = paths;
    this.guests = guests;
    this.out = out;
  }

  void print(LabState state) {
    out.printf(
        "lab in %s: %d nodes (%s), accelerator %s (%s), booted %s, namespace %s%n",
        paths.dir(),
        state.nodeCount(),
        String.join(
            ", ", state.nodes().stream().map(n -> n.name() + " " + n.role().word()).toList()),
        state.accel(),
        state.accelWhy(),
        state.bootedAt(),
        state.namespace());
    for (var e : new TreeMap<>(state.pids()).entrySet()) {
      boolean up = LabProcesses.ours(e.getValue(), paths.dir()).isPresent();
      out.printf("  %-8s pid %-8d %s%n", e.getKey(), e.getValue(), up ? "running" : "GONE");
    }
    out.println(
        "  stacks: " + (state.stacks().isEmpty() ? "none" : String.join(", ", state.stacks())));
    out.println("  settings: " + new TreeMap<>(state.settings()));
    for (String s : state.stacks()) {
      out.println("  inventory " + s + ": " + paths.inventory(Stack.parse(s)));
    }
    for (LabNode n : state.nodes()) {
      Commands.Result r = guests.step(n, Duration.ofSeconds(60), "describe");
      out.print(r.ok() ? r.stdout().indent(2) : "  " + n.name() + ": " + r.lastLine() + "\n");
    }
  }
}

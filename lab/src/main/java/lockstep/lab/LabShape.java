package lockstep.lab;

import java.util.List;
import java.util.Optional;

/**
 * How many guests a {@code lab up} boots and how many of them serve: as its options say, else as
 * the lab that is up has them (a running lab keeps its shape), else {@link LabConfig#DEFAULT_NODES}
 * clients and one server where a stack needs one (NFS).
 */
public record LabShape(int nodes, int servers) {
  /** Refuses no server where a stack of {@code stacks} needs one. */
  public static LabShape of(
      Integer nodes, Integer servers, List<Stack> stacks, Optional<LabState> up) {
    int k =
        servers != null
            ? servers
            : up.map(LabState::servers).orElse(stacks.stream().anyMatch(Stack::served) ? 1 : 0);
    int n = nodes != null ? nodes : up.map(LabState::nodeCount).orElse(LabConfig.DEFAULT_NODES + k);
    for (Stack s : stacks) {
      if (s.served() && k == 0) {
        throw new LabException(
            "--servers: "
                + s.word()
                + " needs a server node (the last node serves: --servers 1; a lab that is up"
                + " keeps its nodes: lab down first)");
      }
    }
    return new LabShape(n, k);
  }
}

package lockstep.coordinator.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.CallScope;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.testsupport.InProcessCluster;

/**
 * The clock sync phase alone at N in-process agents (UDP responders on loopback, as real agents
 * answer), with K agents probed at once, each K in turn per round (rounds alternate the order: A B
 * B A). Prints per K the phase's wall time and, over every agent of every round, the uncertainty
 * (half the best probe's delay) and |offset| (all agents share this host's clock: the true offset
 * is 0, so |offset| is the estimate's own error). Not a unit test. Run with {@code
 * -Dlockstep.clock.agentsAtOnce=MAX_K} so that the JVM-wide bound lets the largest K through.
 * Usage: ClockSyncBench N ROUNDS K1,K2,...
 */
public final class ClockSyncBench {
  private ClockSyncBench() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int[] ks = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
    Path work = Files.createTempDirectory("lockstep-clock-bench-");
    Map<Integer, List<Double>> seconds = new LinkedHashMap<>();
    Map<Integer, List<Double>> uncertainty = new LinkedHashMap<>();
    Map<Integer, List<Double>> offsets = new LinkedHashMap<>();
    for (int k : ks) {
      seconds.put(k, new ArrayList<>());
      uncertainty.put(k, new ArrayList<>());
      offsets.put(k, new ArrayList<>());
    }
    try (InProcessCluster<AgentServer> cluster =
        InProcessCluster.of(AgentMembers.withClockProbes()).members(n).under(work).start()) {
      List<Agent> agents = new ArrayList<>();
      for (InProcessCluster.Member<AgentServer> m : cluster.members()) {
        agents.add(new GrpcAgent("127.0.0.1:" + m.server().clockProbePort(), m.channel()));
      }
      try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
        CallScope scope = CallScope.open();
        ensemble.call("describe", Duration.ofMinutes(5), agents, Agent::describe);
        // warm-up: class loading and JIT, not counted
        ensemble.call(
            "clock sync", Duration.ofMinutes(1), agents, a -> scope, 4, ClockOffset::measure);
        for (int r = 0; r < rounds; r++) {
          List<Integer> order = new ArrayList<>();
          for (int k : ks) {
            order.add(k);
          }
          if (r % 2 == 1) {
            java.util.Collections.reverse(order);
          }
          for (int k : order) {
            long t0 = System.nanoTime();
            var out =
                ensemble.call(
                    "clock sync",
                    Duration.ofMinutes(1),
                    agents,
                    a -> scope,
                    k,
                    ClockOffset::measure);
            seconds.get(k).add((System.nanoTime() - t0) / 1e9);
            if (!out.ok()) {
              throw new IllegalStateException(String.join("; ", out.errorMessages()));
            }
            for (ClockOffset o : out.values().values()) {
              uncertainty.get(k).add(o.uncertaintyNanos() / 1e3);
              offsets.get(k).add(Math.abs(o.offsetNanos()) / 1e3);
            }
          }
        }
      }
    } finally {
      try (var walk = Files.walk(work)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    for (int k : ks) {
      System.out.printf(
          Locale.ROOT,
          "agents %d at_once %d seconds %s uncertainty_us median %.1f p90 %.1f max %.1f"
              + " abs_offset_us median %.1f p90 %.1f max %.1f (%d rounds)%n",
          n,
          k,
          spread(seconds.get(k)),
          quantile(uncertainty.get(k), 0.5),
          quantile(uncertainty.get(k), 0.9),
          quantile(uncertainty.get(k), 1),
          quantile(offsets.get(k), 0.5),
          quantile(offsets.get(k), 0.9),
          quantile(offsets.get(k), 1),
          rounds);
    }
  }

  private static double quantile(List<Double> xs, double q) {
    List<Double> s = xs.stream().sorted().toList();
    return s.get((int) Math.min(s.size() - 1, Math.floor(q * s.size())));
  }

  private static String spread(List<Double> xs) {
    return String.format(
        Locale.ROOT, "%.3f [%.3f .. %.3f]", quantile(xs, 0.5), quantile(xs, 0), quantile(xs, 1));
  }
}

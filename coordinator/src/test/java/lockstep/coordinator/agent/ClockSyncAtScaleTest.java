package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clock sync of many agents, {@link ClockOffset#AGENTS_AT_ONCE} at a time as a step does it,
 * against one at a time in the same minutes (A B B A): every agent's offset still lies within its
 * uncertainty, and the uncertainties are as small. The agents answer over loopback UDP in this JVM,
 * on the coordinator's own cores: the hardest case for probes that run at once.
 */
class ClockSyncAtScaleTest {
  private static final int AGENTS = 64;

  @TempDir Path base;

  @Test
  void agentsProbedAFewAtATimeAreEstimatedAsWellAsOneAtATime() throws Exception {
    try (InProcessCluster<AgentServer> cluster =
        InProcessCluster.of(AgentMembers.withClockProbes()).members(AGENTS).under(base).start()) {
      List<Agent> agents = new ArrayList<>();
      for (InProcessCluster.Member<AgentServer> m : cluster.members()) {
        agents.add(new GrpcAgent("127.0.0.1:" + m.server().clockProbePort(), m.channel()));
      }
      try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
        assertThat(ensemble.call("describe", Duration.ofMinutes(1), agents, Agent::describe).ok())
            .isTrue();
        assertThat(agents).allMatch(a -> ((GrpcAgent) a).probesClockOverUdp());
        sync(ensemble, agents, ClockOffset.AGENTS_AT_ONCE); // warm-up: JIT, not counted
        List<ClockOffset> serial = new ArrayList<>();
        List<ClockOffset> atOnce = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
          if (round == 0) {
            serial.addAll(sync(ensemble, agents, 1));
            atOnce.addAll(sync(ensemble, agents, ClockOffset.AGENTS_AT_ONCE));
          } else {
            atOnce.addAll(sync(ensemble, agents, ClockOffset.AGENTS_AT_ONCE));
            serial.addAll(sync(ensemble, agents, 1));
          }
        }
        // one host, one clock: the true offset is 0, so each estimate is wrong by its |offset|,
        // which the NTP bound keeps within half the best probe's delay
        assertThat(atOnce)
            .hasSize(2 * AGENTS)
            .allSatisfy(
                o -> {
                  assertThat(Math.abs(o.offsetNanos()))
                      .isLessThanOrEqualTo(o.uncertaintyNanos() + 1);
                  assertThat(o.probes()).isBetween(ClockOffset.MIN_PROBES, ClockOffset.PROBES);
                });
        long serialMedian = medianUncertainty(serial);
        long atOnceMedian = medianUncertainty(atOnce);
        assertThat(atOnceMedian)
            .as(
                "median uncertainty %d at a time vs one at a time: %d ns vs %d ns",
                ClockOffset.AGENTS_AT_ONCE, atOnceMedian, serialMedian)
            .isLessThanOrEqualTo(serialMedian * 3 / 2 + 10_000);
      }
    }
  }

  private static List<ClockOffset> sync(AgentEnsemble ensemble, List<Agent> agents, int atOnce) {
    CallScope scope = CallScope.open();
    var out =
        ensemble.call(
            "clock sync", Duration.ofMinutes(1), agents, a -> scope, atOnce, ClockOffset::measure);
    assertThat(out.errorMessages()).isEmpty();
    return List.copyOf(out.values().values());
  }

  private static long medianUncertainty(List<ClockOffset> offsets) {
    List<Long> u = offsets.stream().map(ClockOffset::uncertaintyNanos).sorted().toList();
    return u.get(u.size() / 2);
  }
}

package lockstep.coordinator.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three real agents on 127.0.0.1; a step of a run is prepared (its files made) on two of them. Its
 * owner aborts it everywhere: no file is left and the results stay for collect; anyone else is
 * refused by each agent and nothing changes.
 */
class RunAborterTest {
  private static final String RUN = "20261130-120000-left-running-cd34";

  @RegisterExtension final LoopbackAgentServers servers = LoopbackAgentServers.members(3);

  @BeforeEach
  void prepareAStepOnTwo() throws Exception {
    for (Agent a : servers.connectFirst(ChannelSecurity.NONE, 2).agents()) {
      a.prepare(LoopbackAgentServers.twoNodeWrite(RUN + ".all", 60_000));
    }
    assertThat(file(1)).exists();
    assertThat(file(2)).exists();
  }

  private Path file(int node) {
    return servers
        .roots()
        .resolve("n" + node)
        .resolve("lockstep-" + RUN + ".all")
        .resolve("w.n" + node);
  }

  @Test
  void itsOwnerAbortsTheRunOnEveryNodeHoldingItAndItsFilesGo() throws Exception {
    AgentEnsemble ensemble = servers.connect(ChannelSecurity.NONE);
    var outcome = new RunAborter(ensemble).abort(RUN, "test");
    assertThat(outcome.errorMessages()).isEmpty();
    List<RunAborter.Aborted> all =
        outcome.values().values().stream().flatMap(List::stream).toList();
    assertThat(all).extracting(RunAborter.Aborted::node).containsExactlyInAnyOrder("n1", "n2");
    assertThat(all)
        .allSatisfy(
            s -> {
              assertThat(s.agentRunId()).isEqualTo(RUN + ".all");
              assertThat(s.filesRemoved()).isEqualTo(1);
              assertThat(s.leftovers()).isEmpty();
            });
    for (int i = 1; i <= 3; i++) {
      try (var s = Files.list(servers.roots().resolve("n" + i))) {
        assertThat(s).as("node n%d holds nothing", i).isEmpty();
      }
    }
    // the agents keep each step's result, as a lease that ran out would: its coordinator or collect
    // fetches it
    assertThat(ensemble.agents().subList(0, 2))
        .allSatisfy(
            a ->
                assertThat(a.listRuns().getRunsList())
                    .singleElement()
                    .satisfies(
                        s -> {
                          assertThat(s.getState().name()).isEqualTo("RUN_STATE_ABORTED");
                          assertThat(s.getAbortReason()).isEqualTo("test");
                          assertThat(s.getCleanedAtUnixMillis()).isPositive();
                        }));
    assertThat(new RunCollector(ensemble).collect(RUN).steps().get(0).results())
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.status().name()).isEqualTo("ABORTED"));
    assertThat(new RunAborter(ensemble).abort(RUN, "again").values().values())
        .allSatisfy(l -> assertThat(l).isEmpty());
  }

  @Test
  void anotherIdentityIsRefusedByEachAgentAndNothingChanges() {
    var outcome =
        new RunAborter(servers.connect(new ChannelSecurity(null, null, null, null, "someone-else")))
            .abort(RUN, "hostile");
    assertThat(outcome.errorMessages())
        .hasSize(2)
        .allSatisfy(
            m ->
                assertThat(m)
                    .contains(": abort: abort of run " + RUN + ".all on node n")
                    .contains("refused: the run belongs to owner:")
                    .doesNotContain(ChannelSecurity.OWNER_ID));
    assertThat(file(1)).exists();
    assertThat(file(2)).exists();
    assertThat(
            servers
                .connectFirst(ChannelSecurity.NONE, 1)
                .agents()
                .get(0)
                .listRuns()
                .getRuns(0)
                .getState()
                .name())
        .isEqualTo("RUN_STATE_PREPARED");
  }
}

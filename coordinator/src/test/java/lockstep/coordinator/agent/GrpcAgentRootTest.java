package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.inventory.AgentSelection;
import lockstep.coordinator.inventory.AgentTargets;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One agent serving two file systems, one inventory per file system: each inventory's root: is the
 * root its runs and descriptions use.
 */
class GrpcAgentRootTest {
  @TempDir Path base;
  private InProcessCluster<AgentServer> cluster;
  private Path first;
  private Path second;

  @BeforeEach
  void start() throws Exception {
    cluster = InProcessCluster.of(AgentMembers.withSecondRoot()).members(1).under(base).start();
    first = cluster.member(0).root().toRealPath();
    second = AgentMembers.secondRoot(first);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** The agent as {@code lockstep run --inventory} reaches it with an inventory of this root. */
  private GrpcAgent fromInventory(Path root) {
    AgentSelection s =
        AgentSelection.choose(
            null,
            new InventoryParser()
                .parse(
                    "nodes:\n  - {name: n1, address: \"127.0.0.1:7070\", root: " + root + "}\n",
                    "fs.yaml"),
            List.of(),
            "scenario",
            AgentTargets.system());
    return new GrpcAgent("127.0.0.1:7070", s.root("127.0.0.1:7070"), cluster.member(0).channel());
  }

  @Test
  void eachInventorysRootIsWhereItsRunsGoAndWhatDescribeTells() {
    GrpcAgent onSecond = fromInventory(second);
    assertThat(onSecond.describe().getRoot()).isEqualTo(second.toString());
    onSecond.prepare(AgentMembers.smallWrite("r2"));
    assertThat(second.resolve("lockstep-r2/w.n1")).exists();
    assertThat(first.resolve("lockstep-r2")).doesNotExist();
    onSecond.cleanup("r2");

    GrpcAgent onFirst = fromInventory(first);
    assertThat(onFirst.describe().getRoot()).isEqualTo(first.toString());
    onFirst.prepare(AgentMembers.smallWrite("r1"));
    assertThat(first.resolve("lockstep-r1/w.n1")).exists();
    assertThat(second.resolve("lockstep-r1")).doesNotExist();
  }
}

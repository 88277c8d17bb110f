package lockstep.coordinator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.analysis.NodeLoad;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The phased runner against in-process agents (write workloads need no separate processes). */
class StepRunnerTest {
  @TempDir Path tmp;

  private InProcessCluster<AgentServer> cluster;

  private List<Agent> agents(int n) throws Exception {
    cluster = AgentMembers.inProcess(tmp, n);
    List<Agent> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new GrpcAgent("in-process:" + (i + 1), cluster.member(i).channel()));
    }
    return out;
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Scenario scenario(String workload) {
    return new ScenarioParser()
        .parse("name: t\nplan: [solo, all]\nstart-lead: 100ms\nworkload: " + workload, "t.yaml");
  }

  @Test
  void runsSoloThenAllAndReportsEveryNode() throws Exception {
    Scenario s =
        scenario("{type: write, file: 'w.{node}', block-size: 64KiB, size: 8MiB}")
            .withAgents(List.of("a", "b"));
    try (AgentEnsemble ensemble = new AgentEnsemble(agents(2))) {
      RunRecord run =
          new ExperimentRunner(
                  new RunSetup(
                      s, ensemble, RunListener.SILENT, FaultBounds.defaults(), FaultInjector.NONE))
              .run("test-run");

      assertThat(run.status()).isEqualTo(RunStatus.OK);
      assertThat(run.steps())
          .extracting(StepRecord::id)
          .containsExactly("solo-n1", "solo-n2", "all");
      StepRecord all = run.steps().get(2);
      assertThat(all.results()).extracting(NodeResult::node).containsExactly("n1", "n2");
      for (NodeResult n : all.results()) {
        assertThat(n.status()).isEqualTo(RunStatus.OK);
        assertThat(n.bytes()).isEqualTo(8L << 20);
        assertThat(n.throughput()).isPositive();
        assertThat(n.firstOpUnixNanos())
            .isGreaterThanOrEqualTo(all.intendedStartUnixNanos() - 1_000_000);
        assertThat(n.series()).isNotEmpty();
        assertThat(n.filesRemoved()).isEqualTo(1);
      }
      assertThat(all.aggregate().ops()).isEqualTo(2 * 128);
      assertThat(all.aggregate().latency().count()).isEqualTo(2 * 128);
      assertThat(run.analysis().nodes()).allSatisfy(ns -> assertThat(ns.efficiency()).isPositive());
      assertThat(run.analysis().verdict()).isNotEmpty();
    }
    try (Stream<Path> left = Files.walk(tmp).filter(Files::isRegularFile)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aWatchOnlyAgentSamplesEveryStepAndCountsInNoFigure() throws Exception {
    Scenario s =
        scenario("{type: write, file: 'w.{node}', block-size: 64KiB, size: 8MiB}")
            .withAgents(List.of("in-process:1", "in-process:2", "in-process:3"));
    try (AgentEnsemble ensemble = new AgentEnsemble(agents(3))) {
      RunRecord run =
          new ExperimentRunner(
                  new RunSetup(
                      s,
                      ensemble,
                      RunListener.SILENT,
                      FaultBounds.defaults(),
                      FaultInjector.NONE,
                      Set.of("in-process:3")))
              .run("watched");

      assertThat(run.status()).isEqualTo(RunStatus.OK);
      assertThat(run.agents()).extracting(AgentRecord::node).containsExactly("n1", "n2");
      assertThat(run.watchers()).extracting(AgentRecord::node).containsExactly("n3");
      assertThat(run.steps())
          .as("the plan is the workload's nodes' only")
          .extracting(StepRecord::id)
          .containsExactly("solo-n1", "solo-n2", "all");
      for (StepRecord step : run.steps()) {
        assertThat(step.nodes()).doesNotContain("n3");
        assertThat(step.results()).extracting(NodeResult::node).doesNotContain("n3");
        NodeResult watched = step.watched().get(0);
        assertThat(watched.node()).isEqualTo("n3");
        assertThat(watched.status()).isEqualTo(RunStatus.OK);
        assertThat(watched.ops()).isZero();
        assertThat(watched.resources()).as("sampled from the instant to the end").isNotNull();
        assertThat(watched.resources().lockWaitShare()).isNull();
      }
      StepRecord all = run.steps().get(2);
      assertThat(all.aggregate().ops()).isEqualTo(2 * 128);
      assertThat(all.aggregate().bytes()).isEqualTo(2 * (8L << 20));
      assertThat(run.analysis().nodes()).extracting(ns -> ns.node()).containsExactly("n1", "n2");
      assertThat(NodeLoad.byGroup(run).get("all"))
          .extracting(NodeLoad::node, NodeLoad::watchOnly)
          .containsExactly(tuple("n1", false), tuple("n2", false), tuple("n3", true));
    }
    try (Stream<Path> left = Files.walk(tmp.resolve("n3"))) {
      assertThat(left.filter(p -> !p.equals(tmp.resolve("n3"))))
          .as("the watch-only agent created nothing under its root")
          .isEmpty();
    }
  }

  @Test
  void aNodeThatCannotPrepareFailsTheStepAndTheOthersAreCleanedUp() throws Exception {
    Scenario s = scenario("{type: write, file: 'w', size: 1MiB}").withAgents(List.of("a", "b"));
    List<Agent> agents = agents(2);
    // a directory in the way on n2 only, planted in the step's own directory (r.all: run r, step
    // all)
    Files.createDirectories(tmp.resolve("n2/lockstep-r.all/w"));
    try (AgentEnsemble ensemble = new AgentEnsemble(agents)) {
      StepRecord step =
          new StepRunner(
                  new RunSetup(
                      s, ensemble, RunListener.SILENT, FaultBounds.defaults(), FaultInjector.NONE))
              .run(
                  "r",
                  "all",
                  "all",
                  List.of(new StepNode("n1", agents.get(0)), new StepNode("n2", agents.get(1))));
      assertThat(step.ok()).isFalse();
      assertThat(step.errors())
          .singleElement()
          .asString()
          .startsWith("node n2: prepare: ")
          .contains("open lockstep-r.all/w: EEXIST"); // created with O_EXCL: what is in the way is
      // refused, not opened
    }
    assertThat(tmp.resolve("n1/lockstep-r.all")).doesNotExist();
    assertThat(tmp.resolve("n2/lockstep-r.all/w")).isDirectory();
  }
}

package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.fault.FaultException;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.local.LocalAgents;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.run.ExperimentRunner;
import lockstep.coordinator.run.FaultBounds;
import lockstep.coordinator.run.RunListener;
import lockstep.coordinator.run.RunSetup;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * A scenario's planned fault with real agent processes: the victim's process is killed (SIGKILL)
 * mid-step by an injector of the test's (the lab's injector is exercised by LabFaultIT), and the
 * survivor runs on to the end of the step, which is not a failure. Agents that are not a lab's
 * refuse faults with one line.
 */
class PlannedFaultIT {
  @TempDir Path tmp;
  private LocalAgents agents;

  @AfterEach
  void stop() {
    if (agents != null) {
      agents.close();
    }
  }

  /** Kills an agent process of this test's; ends nothing (a kill does not end); no recovery. */
  private final class KillsLocalAgents implements FaultInjector {
    final List<String> done = new ArrayList<>();

    @Override
    public String refuses(String node) {
      return node.equals("node1") || node.equals("node2") ? null : "not a local agent";
    }

    @Override
    public void begin(Fault f) {
      long pid = agents.pids().get(f.node().equals("node1") ? 0 : 1);
      ProcessHandle.of(pid).orElseThrow(() -> new FaultException("gone")).destroyForcibly();
      done.add("begin " + f.describe());
    }

    @Override
    public String end(Fault f) {
      done.add("end " + f.describe());
      return "ended";
    }

    @Override
    public String recover(String node) {
      done.add("recover " + node);
      return "left dead (test)";
    }
  }

  @Test
  void theSurvivorRunsToTheEndOfTheStepAndTheVictimIsLostAsPlanned() throws Exception {
    agents = LocalAgents.start(2, tmp.resolve("agents"));
    Scenario s =
        new ScenarioParser()
            .parse(
                "name: planned-kill\nplan: [all]\nwarm-up: false\n"
                    + "workload: {type: hot-lock, file: h.dat, processes: 1, lock: flock,"
                    + " duration: 6s}\n"
                    + "faults: [{at: 2s, node: node2, action: kill}]\n",
                "planned-kill.yaml")
            .withAgents(agents.addresses());
    KillsLocalAgents injector = new KillsLocalAgents();
    List<Agent> grpc =
        agents.addresses().stream()
            .<Agent>map(a -> GrpcAgent.connect(a, ChannelSecurity.NONE))
            .toList();
    RunRecord run;
    try (AgentEnsemble ensemble = new AgentEnsemble(grpc)) {
      run =
          RunAnalyzer.analysed(
              new ExperimentRunner(
                      new RunSetup(
                          s, ensemble, RunListener.SILENT, FaultBounds.defaults(), injector))
                  .run("planned-kill-1"));
    }
    assertThat(run.status()).as("errors %s", run.errors()).isEqualTo(RunStatus.OK);
    StepRecord all = run.steps().get(0);
    assertThat(all.ok()).isTrue();
    assertThat(all.results()).extracting(NodeResult::node).containsExactly("node1");
    NodeResult survivor = all.results().get(0);
    // it ran on to the end of its 6 s, past the kill at 2 s
    assertThat(survivor.seconds()).isGreaterThan(5.5);
    assertThat(all.faults()).hasSize(1);
    FaultRecord f = all.faults().get(0);
    assertThat(f.happened()).isTrue();
    assertThat(f.victimLost()).isTrue();
    assertThat(f.beginSeconds(all.intendedStartUnixNanos())).isBetween(1.9, 2.5);
    assertThat(f.recovery()).isEqualTo("left dead (test)");
    assertThat(injector.done).containsExactly("begin kill node2 at 2 s", "recover node2");
    assertThat(run.analysis().faultEffects()).hasSize(1);
    assertThat(run.analysis().findings().get(0).type()).isEqualTo(FindingCode.FAULT_STALL);
    assertThat(run.analysis().findings().get(0).message())
        .startsWith("node1's locks went on without a stall after node2 was killed (at 2.");

    // the report shades the fault's period (red) on the step's time series, in a real browser
    Path saved = new ResultsStore(tmp.resolve("results")).save(run);
    Chromium.assumeInstalled();
    try (Chromium chromium = Chromium.start()) {
      WebDriver page = chromium.open(saved.resolveSibling(ResultsStore.REPORT_FILE));
      WebElement series = page.findElement(By.id("chart-series-all"));
      assertThat(series.getText()).contains("kill node2");
      assertThat(series.findElements(By.cssSelector("svg path")))
          .anySatisfy(
              p ->
                  assertThat(String.valueOf(p.getAttribute("fill")).replace(" ", ""))
                      .contains("203,67,53"));
      assertThat(chromium.consoleErrors()).isEmpty();
    }
  }

  @Test
  void agentsThatAreNotALabsRefuseAScenarioWithFaultsInOneLine() throws Exception {
    agents = LocalAgents.start(2, tmp.resolve("agents"));
    Path scenario =
        Files.writeString(
            tmp.resolve("f.yaml"),
            "name: f\nplan: [all]\nworkload: {type: hot-lock, file: h.dat, processes: 1,"
                + " duration: 3s}\nfaults: [{at: 1s, node: node2, action: kill}]\n");
    Cli r = Cli.run(Cli.runArgs(scenario, agents.addresses(), tmp.resolve("results")));
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err().strip().lines())
        .containsExactly(
            "lockstep: scenario fault 'kill node2 at 1 s': faults are carried out by a lab (the"
                + " guest's QEMU process and QMP socket); these agents are not a lab's: run it"
                + " with `lockstep lab run SCENARIO`");
    assertThat(agents.pids())
        .allMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
  }
}

package lockstep.coordinator.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.run.ExperimentRunner;
import lockstep.coordinator.run.FaultBounds;
import lockstep.coordinator.run.RunListener;
import lockstep.coordinator.run.RunSetup;
import lockstep.coordinator.run.StepNode;
import lockstep.coordinator.run.StepRunner;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;
import lockstep.testsupport.InProcessCluster;

/**
 * Issue 8, goal 4: the coordinator's control plane with N lightweight agents. N real agent services
 * (the agent's own AgentServer and AgentService) run in this JVM behind in-process gRPC servers, so
 * no agent process is started; the coordinator's StepRunner drives one tiny step (a 4 KiB write per
 * agent) through prepare, clock sync, start, run, collect and cleanup, after WARMUPS unmeasured
 * steps (default 5: at 1024 agents the JIT still compiles for seconds a step after one, less than
 * half that after five; real agents are long-lived and warm). The agents' roots are under ROOT
 * (default the JVM's temporary directory; bench/performance.sh passes a tmpfs: a fleet has a file
 * system per agent, and 1024 agents on one ext4 spend their prepare in its inode allocator), their
 * calls on {@link SimulatedAgentCalls} (-Dbench.agentThreads, default 4; 0: gRPC's default
 * executor). Prints per repeat the step's wall time, the JIT's time during it and CPU time per
 * agent: the coordinator's own threads' ({@link CoordinatorCpu}: ThreadMXBean thread CPU time) and
 * the whole process's (coordinator, N in-process agents, GC and JIT: an upper bound). Then one
 * summary line (medians and [min .. max]) and median_seconds X, coordinator_cpu_ms_per_agent Y,
 * max_heap_mb Z, where heap is the peak of the JVM's heap pools during the steps (coordinator and
 * agents together: an upper bound for the coordinator alone). Not a unit test: run by
 * bench/performance.sh (goal "control"). Usage: ControlPlaneBench N [REPEATS [WARMUPS [ROOT]]]
 */
public final class ControlPlaneBench {
  private ControlPlaneBench() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path work =
        args.length > 3
            ? Files.createTempDirectory(Path.of(args[3]), "lockstep-control-bench-")
            : Files.createTempDirectory("lockstep-control-bench-");
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    List<StepNode> nodes = new ArrayList<>();
    // gRPC in-process; clock probes over loopback UDP, as a real agent answers them
    // -Dbench.agentThreads=0: the agents' servers on gRPC's default executor (a thread per call)
    int agentThreads = Integer.getInteger("bench.agentThreads", 4);
    SimulatedAgentCalls agentCalls =
        agentThreads > 0 ? new SimulatedAgentCalls(agentThreads) : null;
    try (InProcessCluster<AgentServer> cluster =
        InProcessCluster.of(AgentMembers.withClockProbes())
            .members(n)
            .under(work)
            .serverExecutor(agentCalls) // null: gRPC's default
            .start()) {
      for (InProcessCluster.Member<AgentServer> m : cluster.members()) {
        nodes.add(
            new StepNode(
                m.name(), new GrpcAgent("127.0.0.1:" + m.server().clockProbePort(), m.channel())));
      }
      Scenario scenario =
          new ScenarioParser()
              .parse(
                  "name: control-plane\nplan: [all]\nstart-lead: 50ms\ntelemetry: false\n"
                      + "workload: {type: write, file: 'w.{node}', size: 4KiB, block-size: 4KiB}",
                  "control-plane.yaml");
      List<Agent> agents = nodes.stream().map(StepNode::agent).toList();
      List<Double> seconds = new ArrayList<>();
      List<Double> coordinatorMs = new ArrayList<>();
      List<Double> processMs = new ArrayList<>();
      List<Double> uncertainty = new ArrayList<>();
      List<Double> offsets = new ArrayList<>();
      try (AgentEnsemble ensemble = new AgentEnsemble(agents);
          CoordinatorCpu cpu =
              new CoordinatorCpu(Boolean.getBoolean("bench.threads"), agentCalls != null)) {
        // as a run does before its first step (and how a GrpcAgent learns the clock probe port)
        var described = ExperimentRunner.describe(ensemble, agents, FaultBounds.defaults());
        if (!described.ok()) {
          throw new IllegalStateException(String.join("; ", described.errorMessages()));
        }
        StepRunner runner =
            new StepRunner(
                new RunSetup(
                    scenario,
                    ensemble,
                    RunListener.SILENT,
                    FaultBounds.defaults(),
                    FaultInjector.NONE));
        if (agentCalls != null) {
          agentCalls.steps();
        }
        for (int w = 1; w <= warmups; w++) {
          runner.run("warm-up-" + w, "all", "all", nodes); // class loading and JIT, not counted
        }
        System.gc();
        resetPeaks();
        for (int r = 1; r <= repeats; r++) {
          cpu.mark();
          long p0 = CoordinatorCpu.processNanos();
          long jit0 = jit.getTotalCompilationTime();
          long t0 = System.nanoTime();
          StepRecord step = runner.run("bench-" + r, "all", "all", nodes);
          double s = (System.nanoTime() - t0) / 1e9;
          long jitMs = jit.getTotalCompilationTime() - jit0;
          double own = cpu.sinceMarkNanos() / 1e6 / n;
          double all = (CoordinatorCpu.processNanos() - p0) / 1e6 / n;
          seconds.add(s);
          coordinatorMs.add(own);
          processMs.add(all);
          List<Double> unc =
              step.results().stream().map(NodeResult::clockUncertaintyMillis).sorted().toList();
          List<Double> off =
              step.results().stream().map(x -> Math.abs(x.clockOffsetMillis())).sorted().toList();
          List<Double> skew =
              step.results().stream().map(x -> Math.abs(x.startSkewMillis())).sorted().toList();
          uncertainty.addAll(unc);
          offsets.addAll(off);
          System.out.printf(
              Locale.ROOT,
              "agents %d repeat %d seconds %.3f coordinator_cpu_ms_per_agent %.3f"
                  + " process_cpu_ms_per_agent %.3f status %s clock_uncertainty_us %.0f [max %.0f]"
                  + " abs_offset_us %.0f [max %.0f] start_skew_ms %.1f [max %.1f] jit_ms %d%n",
              n,
              r,
              s,
              own,
              all,
              step.status(),
              unc.isEmpty() ? Double.NaN : median(unc) * 1000,
              unc.isEmpty() ? Double.NaN : unc.get(unc.size() - 1) * 1000,
              off.isEmpty() ? Double.NaN : median(off) * 1000,
              off.isEmpty() ? Double.NaN : off.get(off.size() - 1) * 1000,
              skew.isEmpty() ? Double.NaN : median(skew),
              skew.isEmpty() ? Double.NaN : skew.get(skew.size() - 1),
              jitMs);
          if (Boolean.getBoolean("bench.threads")) {
            // -Dbench.threads=true: where the step's CPU went, by kind of thread
            cpu.byKind().entrySet().stream()
                .filter(e -> e.getValue() >= 1_000_000)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(
                    e ->
                        System.out.printf(
                            Locale.ROOT,
                            "  cpu %8.1f ms %s%s%n",
                            e.getValue() / 1e6,
                            e.getKey(),
                            cpu.coordinators(e.getKey()) ? " (coordinator)" : ""));
          }
          if (!step.ok()) {
            step.errors().stream().limit(5).forEach(e -> System.out.println("  error: " + e));
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "agents %d wall_s_per_step %s coordinator_cpu_ms_per_agent_step %s"
              + " process_cpu_ms_per_agent_step %s (medians [min .. max] of %d repeats after %d"
              + " warm-up steps; roots under %s; agents' calls on %s)%n",
          n,
          spread(seconds, "%.3f"),
          spread(coordinatorMs, "%.3f"),
          spread(processMs, "%.2f"),
          repeats,
          warmups,
          work.getParent(),
          agentThreads > 0 ? agentThreads + " threads" : "gRPC's default executor");
      if (!uncertainty.isEmpty()) {
        // same host, one clock: the true offset is 0, so |offset| is the estimate's error
        System.out.printf(
            Locale.ROOT,
            "agents %d clock_uncertainty_ms %s abs_offset_ms %s (medians [min .. max] of every"
                + " node-step)%n",
            n,
            spread(uncertainty, "%.4f"),
            spread(offsets, "%.4f"));
      }
      System.out.printf(Locale.ROOT, "median_seconds %.3f%n", median(seconds));
      System.out.printf(Locale.ROOT, "coordinator_cpu_ms_per_agent %.3f%n", median(coordinatorMs));
      System.out.printf(Locale.ROOT, "max_heap_mb %.1f%n", peakHeapBytes() / 1e6);
    } finally {
      if (agentCalls != null) {
        agentCalls.close();
      }
      deleteTree(work);
    }
  }

  private static double median(List<Double> xs) {
    List<Double> s = xs.stream().sorted().toList();
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  /** "median [min .. max]" in {@code format}. */
  private static String spread(List<Double> xs, String format) {
    String f = format + " [" + format + " .. " + format + "]";
    return String.format(
        Locale.ROOT,
        f,
        median(xs),
        xs.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        xs.stream().mapToDouble(Double::doubleValue).max().orElse(0));
  }

  private static void resetPeaks() {
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  private static long peakHeapBytes() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

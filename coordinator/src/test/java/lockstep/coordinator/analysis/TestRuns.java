package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OperationFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.ScenarioParser;

/**
 * Hand-built runs with known figures, for checking the analysis arithmetic (and, from other
 * packages' tests, what is judged on it).
 */
public final class TestRuns {
  public static final long ORIGIN = 1_700_000_000_000_000_000L;

  private TestRuns() {}

  /**
   * A lock-workload node that did {@code ops} ops between first and end (seconds after the start
   * instant).
   */
  public static NodeResult node(
      String name,
      long ops,
      double first,
      double end,
      double skewMillis,
      long coherence,
      List<Sample> series) {
    NodeBuilder n = building(name, ops, first, end);
    n.skewMillis = skewMillis;
    n.coherenceErrors = coherence;
    n.series = series;
    return n.build();
  }

  /** As {@link #node(String, long, double, double, double, long, List)}, with no series. */
  public static NodeResult node(
      String name, long ops, double first, double end, double skewMillis, long coherence) {
    return node(name, ops, first, end, skewMillis, coherence, List.of());
  }

  public static NodeResult node(String name, long ops, double seconds) {
    return building(name, ops, seconds).build();
  }

  /**
   * As {@link #node(String, long, double)}, a ping-pong node that found {@code errors} in checks.
   */
  public static NodeResult checkedNode(
      String name, long ops, double seconds, long errors, long checks) {
    NodeBuilder n = building(name, ops, seconds);
    n.coherenceErrors = errors;
    n.coherenceChecks = checks;
    return n.build();
  }

  /** A lock node as {@link #node(String, long, double)} makes it, for a test to change. */
  static NodeBuilder building(String name, long ops, double seconds) {
    return building(name, ops, 0.001, 0.001 + seconds);
  }

  /** A lock node as {@code node(name, ops, first, end, 1, 0, List.of())} makes it. */
  static NodeBuilder building(String name, long ops, double first, double end) {
    return new NodeBuilder(name, ops, first, end);
  }

  /**
   * A node's figures by hand: a lock node that did {@code ops} ops between first and end, with the
   * fields a test changes before {@link #build}.
   */
  static final class NodeBuilder {
    private final String name;
    private final long ops;
    private final double first;
    private final double end;
    double skewMillis = 1;
    long bytes;
    double clockUncertaintyMillis = 0.1;
    Latency latency;
    String histogram = "";
    List<Sample> series = List.of();
    long coherenceErrors;
    long coherenceChecks;
    long lockRetries;
    List<OperationFigures> operations = List.of();
    NodeResources resources;

    private NodeBuilder(String name, long ops, double first, double end) {
      this.name = name;
      this.ops = ops;
      this.first = first;
      this.end = end;
      this.latency = new Latency(ops, 10, 8, 12, 20, 30, 40);
    }

    NodeResult build() {
      double seconds = end - first;
      return new NodeResult(
          name,
          RunStatus.OK,
          ops,
          bytes,
          seconds,
          ops / seconds,
          skewMillis,
          0,
          clockUncertaintyMillis,
          ORIGIN + (long) (first * 1e9),
          ORIGIN + (long) (end * 1e9),
          latency,
          histogram,
          series,
          null,
          0,
          coherenceErrors,
          coherenceChecks,
          lockRetries,
          null,
          operations,
          resources);
    }
  }

  public static StepRecord step(
      String id, String group, String kind, int repeat, NodeResult... nodes) {
    List<NodeResult> list = List.of(nodes);
    double first = list.stream().mapToLong(NodeResult::firstOpUnixNanos).min().orElse(0);
    double end = list.stream().mapToLong(NodeResult::endUnixNanos).max().orElse(0);
    long ops = list.stream().mapToLong(NodeResult::ops).sum();
    double seconds = (end - first) / 1e9;
    double skew = list.stream().mapToDouble(n -> Math.abs(n.startSkewMillis())).max().orElse(0);
    Aggregate agg =
        new Aggregate(
            seconds,
            ops,
            0,
            ops / seconds,
            list.stream().mapToDouble(NodeResult::throughput).sum(),
            skew,
            new Latency(ops, 10, 8, 12, 20, 30, 40),
            "");
    return new StepRecord(
        id,
        kind,
        list.stream().map(NodeResult::node).toList(),
        ORIGIN,
        RunStatus.OK,
        list,
        agg,
        List.of(),
        group,
        repeat,
        List.of(),
        List.of());
  }

  /** The plan's one "all" step: these nodes together, first repeat. */
  public static StepRecord allStep(NodeResult... nodes) {
    return step("all", "all", "all", 1, nodes);
  }

  /** Agents node1 and node2 running {@code all} together, analysed with this start-skew share. */
  public static RunRecord analysedPair(StepRecord all, double skewFraction) {
    return analysed(run(List.of(agent("node1"), agent("node2")), List.of(all), 1, skewFraction));
  }

  /** The codes of the run's findings, in order. */
  public static List<FindingCode> codes(RunRecord r) {
    return r.analysis().findings().stream().map(Finding::type).toList();
  }

  /** The message of the run's first finding with this code. */
  public static String message(RunRecord r, FindingCode code) {
    return r.analysis().findings().stream()
        .filter(f -> f.type() == code)
        .findFirst()
        .orElseThrow()
        .message();
  }

  public static AgentRecord agent(String node) {
    return agent(node, "6.1.0", Map.of());
  }

  public static AgentRecord agent(String node, String kernel, Map<String, String> settings) {
    return agent(node, kernel, settings, "ext4");
  }

  /** An agent whose root is on file system {@code fsType}. */
  public static AgentRecord agent(
      String node, String kernel, Map<String, String> settings, String fsType) {
    return new AgentRecord(
        node,
        "127.0.0.1:1",
        "0.1",
        "host",
        "/r",
        fsType,
        "/",
        "rw",
        "/dev/sda1",
        kernel,
        2,
        "cpu",
        1L << 30,
        "sda1",
        settings,
        Map.of(),
        "");
  }

  /** An agent as run.json recorded it before environment capture: its node and address only. */
  static AgentRecord bareAgent(String node, String address) {
    return new AgentRecord(
        node, address, "", "", "", "", "", "", "", "", 0, "", 0, "", Map.of(), Map.of(), "");
  }

  public static RunRecord run(
      List<AgentRecord> agents, List<StepRecord> steps, int repeat, double skewFraction) {
    return run(agents, steps, repeat, skewFraction, "lock-files");
  }

  /**
   * A run of a lock workload of type {@code type} (lock-files, ping-pong, hot-lock) with fcntl
   * locks, its other fields the scenario's defaults.
   */
  public static RunRecord run(
      List<AgentRecord> agents,
      List<StepRecord> steps,
      int repeat,
      double skewFraction,
      String type) {
    return run(agents, steps, repeat, skewFraction, workload("type: " + type + ", lock: fcntl"));
  }

  /** A run of the workload {@code spec}. */
  public static RunRecord run(
      List<AgentRecord> agents,
      List<StepRecord> steps,
      int repeat,
      double skewFraction,
      WorkloadSpec spec) {
    return building(agents, steps)
        .workload(spec)
        .repeat(repeat)
        .skewWarnFraction(skewFraction)
        .build();
  }

  /**
   * A workload as a scenario writes it in a flow mapping ({@code type: ping-pong, warmup: 500ms}),
   * read and validated by the scenario parser: the fields not given are its defaults.
   */
  public static WorkloadSpec workload(String fields) {
    return new ScenarioParser().parse("name: t\nworkload: {" + fields + "}\n", "test").workload();
  }

  /** A lock-files run of these agents and steps, plan solo and all, for a test to change. */
  public static RunBuilder building(List<AgentRecord> agents, List<StepRecord> steps) {
    return new RunBuilder(agents, steps);
  }

  /** {@code r} as it is, for a test to change. */
  public static RunBuilder copy(RunRecord r) {
    return new RunBuilder(r);
  }

  /**
   * A run record by hand: the fields a test sets, the others as a plain successful run has them.
   */
  public static final class RunBuilder {
    private String runId = "r1";
    private String name = "test";
    private String createdAt = "2026-01-01T00:00:00Z";
    private String coordinatorVersion = "0.1";
    private WorkloadSpec workload = TestRuns.workload("type: lock-files, lock: fcntl");
    private List<String> plan = List.of("solo", "all");
    private final List<AgentRecord> agents;
    private final List<StepRecord> steps;
    private Analysis analysis;
    private RunStatus status = RunStatus.OK;
    private List<String> errors = List.of();
    private int repeat = 1;
    private List<Integer> ramp = List.of();
    private double skewWarnFraction = RunRecord.DEFAULT_SKEW_WARN_FRACTION;
    private List<ExpectationOutcome> expectations = List.of();
    private List<AgentRecord> watchers = List.of();

    private RunBuilder(List<AgentRecord> agents, List<StepRecord> steps) {
      this.agents = agents;
      this.steps = steps;
    }

    private RunBuilder(RunRecord r) {
      this(r.agents(), r.steps());
      runId = r.runId();
      name = r.name();
      createdAt = r.createdAt();
      coordinatorVersion = r.coordinatorVersion();
      workload = r.workload();
      plan = r.plan();
      analysis = r.analysis();
      status = r.status();
      errors = r.errors();
      repeat = r.repeat();
      ramp = r.ramp();
      skewWarnFraction = r.skewWarnFraction();
      watchers = r.watchers();
      expectations = r.expectations();
    }

    public RunBuilder named(String newRunId, String newName) {
      runId = newRunId;
      name = newName;
      return this;
    }

    public RunBuilder createdAt(String instant) {
      createdAt = instant;
      return this;
    }

    public RunBuilder version(String coordinator) {
      coordinatorVersion = coordinator;
      return this;
    }

    /** A run of {@code spec} (its type, unit and operation its kind's). */
    public RunBuilder workload(WorkloadSpec spec) {
      workload = spec;
      return this;
    }

    public RunBuilder plan(String... steps) {
      plan = List.of(steps);
      return this;
    }

    /** Not analysed (a copy drops its run's analysis). */
    public RunBuilder unanalysed() {
      analysis = null;
      return this;
    }

    /** A run that ended {@code newStatus} with these errors. */
    public RunBuilder ended(RunStatus newStatus, String... newErrors) {
      status = newStatus;
      errors = List.of(newErrors);
      return this;
    }

    public RunBuilder repeat(int times) {
      repeat = times;
      return this;
    }

    public RunBuilder ramp(Integer... nodeCounts) {
      ramp = List.of(nodeCounts);
      return this;
    }

    public RunBuilder skewWarnFraction(double fraction) {
      skewWarnFraction = fraction;
      return this;
    }

    /** With these watch-only agents (their results go in each step's watched). */
    public RunBuilder watchers(List<AgentRecord> watching) {
      watchers = watching;
      return this;
    }

    /** Judged by no expectation. */
    public RunBuilder unjudged() {
      expectations = List.of();
      return this;
    }

    public RunRecord build() {
      return new RunRecord(
          RunRecord.SCHEMA,
          runId,
          name,
          createdAt,
          coordinatorVersion,
          WorkloadKind.of(workload).name(),
          workload,
          WorkloadKind.of(workload).unit(),
          WorkloadKind.of(workload).opName(),
          plan,
          agents,
          steps,
          analysis,
          status,
          errors,
          repeat,
          ramp,
          skewWarnFraction,
          expectations,
          watchers);
    }
  }

  public static RunRecord analysed(RunRecord r) {
    return r.withAnalysis(RunAnalyzer.analyse(r));
  }

  /**
   * Solo of each node at {@code solo} ops/s, then all together at {@code together} ops/s each, over
   * 1 s.
   */
  public static RunRecord soloThenAll(double[] solo, double[] together) {
    List<AgentRecord> agents = new ArrayList<>();
    List<StepRecord> steps = new ArrayList<>();
    for (int i = 0; i < solo.length; i++) {
      agents.add(agent("node" + (i + 1)));
      steps.add(
          step(
              "solo-node" + (i + 1),
              "solo-node" + (i + 1),
              "solo",
              1,
              node("node" + (i + 1), (long) solo[i], 1.0)));
    }
    NodeResult[] all = new NodeResult[together.length];
    for (int i = 0; i < together.length; i++) {
      all[i] = node("node" + (i + 1), (long) together[i], 1.0);
    }
    steps.add(step("all", "all", "all", 1, all));
    return analysed(run(agents, steps, 1, 0.05));
  }
}

package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OperationFigures;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;

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

  public static NodeResult node(String name, long ops, double seconds) {
    return building(name, ops, seconds).build();
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
        repeat);
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

  /** A run of a lock workload of type {@code type} (lock-files, ping-pong, hot-lock). */
  public static RunRecord run(
      List<AgentRecord> agents,
      List<StepRecord> steps,
      int repeat,
      double skewFraction,
      String type) {
    return run(agents, steps, repeat, skewFraction, type, Map.of("type", type, "lock", "fcntl"));
  }

  /** A run of workload type {@code type} with the workload's fields {@code params}. */
  public static RunRecord run(
      List<AgentRecord> agents,
      List<StepRecord> steps,
      int repeat,
      double skewFraction,
      String type,
      Map<String, Object> params) {
    return new RunRecord(
        RunRecord.SCHEMA,
        "r1",
        "test",
        "2026-01-01T00:00:00Z",
        "0.1",
        type,
        params,
        "locks/s",
        "lock",
        List.of("solo", "all"),
        agents,
        steps,
        null,
        RunStatus.OK,
        List.of(),
        repeat,
        List.of(),
        skewFraction);
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

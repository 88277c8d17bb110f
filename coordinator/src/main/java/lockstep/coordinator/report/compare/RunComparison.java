package lockstep.coordinator.report.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.NodeScaling;
import lockstep.coordinator.model.RunRecord;

/**
 * Two runs side by side (A = before, B = after): per node solo and together, the ratio B / A, the
 * aggregates, and warnings when they did not run the same workload on the same nodes. Ratios are
 * null where either side lacks the figure.
 */
public record RunComparison(
    RunRecord a,
    RunRecord b,
    List<NodeRow> nodes,
    Row aggregate,
    Row sumOfSolos,
    Row aggregateEfficiency,
    Row meanNodeEfficiency,
    Row overlapAggregate,
    List<String> settingDifferences,
    List<String> warnings) {

  /** One figure in A and B and their ratio B / A. */
  public record Row(String label, Double a, Double b, Double ratio) {
    static Row of(String label, Double a, Double b) {
      return new Row(label, a, b, a != null && b != null && a != 0 ? b / a : null);
    }

    /** {@code figure} of A's {@code a} and of B's {@code b} (null where one has none). */
    static <T> Row of(String label, T a, T b, Function<T, Double> figure) {
      return of(label, a == null ? null : figure.apply(a), b == null ? null : figure.apply(b));
    }
  }

  public record NodeRow(String node, Row solo, Row together) {}

  public static RunComparison of(RunRecord a, RunRecord b) {
    List<String> warnings = new ArrayList<>();
    if (!Objects.equals(a.workloadType(), b.workloadType())) {
      warnings.add(
          "the workloads differ: A ran "
              + a.workloadType()
              + ", B ran "
              + b.workloadType()
              + "; ratios compare unlike things");
    } else if (!Objects.equals(a.workload(), b.workload())) {
      warnings.add(
          "the workload parameters differ: A "
              + a.workloadSettings()
              + ", B "
              + b.workloadSettings());
    }
    if (!Objects.equals(a.unit(), b.unit())) {
      warnings.add("the units differ: A in " + a.unit() + ", B in " + b.unit());
    }
    Set<String> nodesA = new TreeSet<>(a.agents().stream().map(AgentRecord::node).toList());
    Set<String> nodesB = new TreeSet<>(b.agents().stream().map(AgentRecord::node).toList());
    if (!nodesA.equals(nodesB)) {
      warnings.add("the node sets differ: A ran on " + nodesA + ", B on " + nodesB);
    }
    if (!Objects.equals(a.plan(), b.plan())) {
      warnings.add("the plans differ: A " + a.plan() + ", B " + b.plan());
    }
    if (a.analysis() != null && !a.analysis().valid()) {
      warnings.add("run A is INVALID (" + a.analysis().verdict().get(0) + ")");
    }
    if (b.analysis() != null && !b.analysis().valid()) {
      warnings.add("run B is INVALID (" + b.analysis().verdict().get(0) + ")");
    }
    Set<String> all = new LinkedHashSet<>(a.agents().stream().map(AgentRecord::node).toList());
    b.agents().forEach(x -> all.add(x.node()));
    List<NodeRow> rows = new ArrayList<>();
    for (String n : all) {
      NodeScaling sa = scaling(a, n);
      NodeScaling sb = scaling(b, n);
      rows.add(
          new NodeRow(
              n,
              Row.of("solo", sa, sb, NodeScaling::solo),
              Row.of("together", sa, sb, NodeScaling::concurrent)));
    }
    var aa = a.analysis();
    var ab = b.analysis();
    return new RunComparison(
        a,
        b,
        List.copyOf(rows),
        Row.of("aggregate (all nodes together)", aa, ab, Analysis::concurrentSumOfNodes),
        Row.of("sum of solos", aa, ab, Analysis::sumOfSolos),
        Row.of("aggregate efficiency", aa, ab, Analysis::aggregateEfficiency),
        Row.of("per-node efficiency (mean)", aa, ab, Analysis::meanNodeEfficiency),
        Row.of("aggregate in overlap window", aa, ab, Analysis::concurrentOverlapAggregate),
        settingDifferences(a, b),
        List.copyOf(warnings));
  }

  private static NodeScaling scaling(RunRecord r, String node) {
    return r.analysis() == null
        ? null
        : r.analysis().nodes().stream().filter(x -> x.node().equals(node)).findFirst().orElse(null);
  }

  /**
   * Environment and cluster settings that changed between the runs, per node (what the user
   * changed, e.g. plock_rate_limit).
   */
  static List<String> settingDifferences(RunRecord a, RunRecord b) {
    List<String> out = new ArrayList<>();
    forEachNodeInBoth(
        a,
        b,
        (x, y) -> {
          forEachSettingChange(
              x, y, (k, va, vb) -> out.add(x.node() + ": " + k + " " + va + " -> " + vb));
          diff(out, x.node(), "kernel", x.kernel(), y.kernel());
          diff(out, x.node(), "file system", x.fsType(), y.fsType());
          diff(out, x.node(), "mount options", x.mountOptions(), y.mountOptions());
        });
    return out;
  }

  /**
   * The cluster settings that changed, each once with the nodes it changed on ("on every node" when
   * it changed on all of them): "dlm_controld:plock_rate_limit 100 -> 0 on every node".
   */
  public List<String> settingChanges() {
    Map<String, List<String>> nodesByChange = new LinkedHashMap<>();
    forEachNodeInBoth(
        a,
        b,
        (x, y) ->
            forEachSettingChange(
                x,
                y,
                (k, va, vb) ->
                    nodesByChange
                        .computeIfAbsent(k + " " + va + " -> " + vb, c -> new ArrayList<>())
                        .add(x.node())));
    List<String> out = new ArrayList<>();
    nodesByChange.forEach(
        (change, nodes) ->
            out.add(
                change
                    + (nodes.size() == a.agents().size() && nodes.size() > 1
                        ? " on every node"
                        : " on " + String.join(", ", nodes))));
    return out;
  }

  /** Each node of run {@code a} with its record in run {@code b}; nodes only in one are skipped. */
  private static void forEachNodeInBoth(
      RunRecord a, RunRecord b, BiConsumer<AgentRecord, AgentRecord> action) {
    for (AgentRecord x : a.agents()) {
      b.agents().stream()
          .filter(o -> o.node().equals(x.node()))
          .findFirst()
          .ifPresent(y -> action.accept(x, y));
    }
  }

  private interface SettingChange {
    void accept(String key, String before, String after);
  }

  /** Each cluster setting whose value differs between two records of one node. */
  private static void forEachSettingChange(AgentRecord x, AgentRecord y, SettingChange change) {
    Set<String> keys = new TreeSet<>(x.clusterSettings().keySet());
    keys.addAll(y.clusterSettings().keySet());
    for (String k : keys) {
      String va = x.clusterSettings().getOrDefault(k, "(not set)");
      String vb = y.clusterSettings().getOrDefault(k, "(not set)");
      if (!va.equals(vb)) {
        change.accept(k, va, vb);
      }
    }
  }

  private static void diff(List<String> out, String node, String what, String a, String b) {
    if (!Objects.equals(a, b) && !(a == null || a.isEmpty()) && !(b == null || b.isEmpty())) {
      out.add(node + ": " + what + " " + a + " -> " + b);
    }
  }

  public String unit() {
    return a.unit();
  }
}

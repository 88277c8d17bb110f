package lockstep.coordinator.results;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.Aggregate;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import org.HdrHistogram.Histogram;

/**
 * A step's record from what each of its nodes' agents answered: every node's figures on the
 * coordinator's time base, the nodes' shares, the merged latency histogram and the aggregate. A
 * running coordinator ({@code run/StepRunner}) and {@code lockstep collect} both assemble steps
 * here, each as its own group, repeat 1, until the caller places it in the plan ({@link
 * StepRecord#withPlace}).
 */
public final class StepResults {
  private StepResults() {}

  /**
   * What one node's agent answered for a step.
   *
   * @param intendedStart the step's start instant on the coordinator's clock (0 if unknown)
   * @param filesRemoved what its cleanup removed
   */
  public record NodeOutcome(
      String node,
      WorkloadResult result,
      ClockOffset clock,
      long intendedStart,
      long filesRemoved) {}

  /** A step whose nodes ran nothing: why is in {@code errors}. */
  public static StepRecord failed(
      String stepId, String kind, List<String> nodes, List<String> errors) {
    return new StepRecord(
        stepId,
        kind,
        List.copyOf(nodes),
        0,
        RunStatus.FAILED,
        List.of(),
        null,
        List.copyOf(errors),
        stepId,
        1,
        List.of(),
        List.of());
  }

  /**
   * The step's record. It is ok when no error was seen, every node answered and every node's run
   * ended ok; a node that did not is named in the errors with its status and error.
   *
   * @param errors what went wrong so far (phases, cleanup); the nodes' own failures are added
   * @param lostToFaults nodes lost to the scenario's faults, expected to have no result
   */
  public static StepRecord of(
      String stepId,
      String kind,
      List<String> nodes,
      long intendedStart,
      List<NodeOutcome> outcomes,
      WorkloadKind<?> workload,
      List<String> errors,
      Set<String> lostToFaults) {
    return of(
        stepId, kind, nodes, intendedStart, outcomes, List.of(), workload, errors, lostToFaults);
  }

  /**
   * The step's record with what its watch-only nodes' agents answered ({@code watched}: their
   * resources only, kept apart from every figure); a watch-only node that failed fails the step as
   * any node does.
   */
  public static StepRecord of(
      String stepId,
      String kind,
      List<String> nodes,
      long intendedStart,
      List<NodeOutcome> outcomes,
      List<NodeOutcome> watched,
      WorkloadKind<?> workload,
      List<String> errors,
      Set<String> lostToFaults) {
    List<String> all = new ArrayList<>(errors);
    List<NodeResult> results = new ArrayList<>();
    Histogram merged = LatencyHistograms.create();
    for (NodeOutcome o : outcomes) {
      NodeResult nr =
          NodeResults.of(
              o.node(), o.result(), o.clock(), o.intendedStart(), workload, o.filesRemoved());
      results.add(nr);
      merged.add(LatencyHistograms.decode(o.result().getLatencyHistogram()));
      if (!nr.ok()) {
        all.add(failure(nr));
      }
    }
    List<NodeResult> watchedResults = new ArrayList<>();
    for (NodeOutcome o : watched) {
      NodeResult nr = NodeResults.watched(o.node(), o.result(), o.clock(), o.intendedStart());
      watchedResults.add(nr);
      if (!nr.ok()) {
        all.add("watch-only " + failure(nr));
      }
    }
    results = NodeResults.withShares(results);
    long lost = lostToFaults.stream().filter(nodes::contains).count();
    boolean ok = all.isEmpty() && results.size() + lost == nodes.size();
    return new StepRecord(
        stepId,
        kind,
        List.copyOf(nodes),
        intendedStart,
        ok ? RunStatus.OK : RunStatus.FAILED,
        List.copyOf(results),
        aggregate(results, merged, workload.countsBytes()),
        List.copyOf(all),
        stepId,
        1,
        List.of(),
        List.copyOf(watchedResults));
  }

  /** "node N: STATUS: error": a node whose run did not end ok, as the step's errors name it. */
  private static String failure(NodeResult nr) {
    return "node "
        + nr.node()
        + ": "
        + nr.status()
        + (nr.error() == null ? "" : ": " + nr.error().message());
  }

  /**
   * The step's figures over its nodes: merged histogram, summed and overlap throughput, largest
   * skew.
   */
  static Aggregate aggregate(List<NodeResult> nodes, Histogram merged, boolean bytesUnit) {
    List<NodeResult> started = nodes.stream().filter(n -> n.firstOpUnixNanos() > 0).toList();
    if (started.isEmpty()) {
      return null;
    }
    long first = started.stream().mapToLong(NodeResult::firstOpUnixNanos).min().orElse(0);
    long end = started.stream().mapToLong(NodeResult::endUnixNanos).max().orElse(0);
    long ops = started.stream().mapToLong(NodeResult::ops).sum();
    long bytes = started.stream().mapToLong(NodeResult::bytes).sum();
    double seconds = (end - first) / 1e9;
    double sum = started.stream().mapToDouble(NodeResult::throughput).sum();
    double skew = started.stream().mapToDouble(n -> Math.abs(n.startSkewMillis())).max().orElse(0);
    return new Aggregate(
        seconds,
        ops,
        bytes,
        NodeResults.throughput(bytesUnit, ops, bytes, seconds),
        sum,
        skew,
        Latency.of(merged),
        Base64.getEncoder().encodeToString(LatencyHistograms.encode(merged).toByteArray()));
  }
}

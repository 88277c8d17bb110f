package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;

/**
 * The stonewall window of a step: from the last node's first operation to the first node's end, all
 * on the coordinator's time base. Each node's work inside the window is read off its cumulative
 * progress series (linear between samples), anchored at zero work at its first operation and its
 * final count at its end.
 */
public final class OverlapWindows {
  private OverlapWindows() {}

  /** The window of a step with at least two started nodes, else null. */
  public static OverlapWindow of(StepRecord step, boolean bytesUnit) {
    List<NodeResult> started =
        step.results().stream()
            .filter(n -> n.firstOpUnixNanos() > 0 && n.endUnixNanos() > 0)
            .toList();
    if (started.size() < 2 || step.intendedStartUnixNanos() <= 0) {
      return null;
    }
    long origin = step.intendedStartUnixNanos();
    double start =
        started.stream().mapToDouble(n -> (n.firstOpUnixNanos() - origin) / 1e9).max().orElse(0);
    double end =
        started.stream().mapToDouble(n -> (n.endUnixNanos() - origin) / 1e9).min().orElse(0);
    double wholeStart =
        started.stream().mapToDouble(n -> (n.firstOpUnixNanos() - origin) / 1e9).min().orElse(0);
    double wholeEnd =
        started.stream().mapToDouble(n -> (n.endUnixNanos() - origin) / 1e9).max().orElse(0);
    double whole = started.stream().mapToDouble(NodeResult::throughput).sum();
    double seconds = end - start;
    if (seconds <= 0) {
      return new OverlapWindow(
          step.id(),
          step.group(),
          start,
          end,
          Math.max(0, seconds),
          wholeEnd - wholeStart,
          whole,
          null,
          Map.of());
    }
    Map<String, Double> byNode = new LinkedHashMap<>();
    double sum = 0;
    for (NodeResult n : started) {
      double[][] curve = curve(n, origin, bytesUnit);
      double rate = (workAt(curve, end) - workAt(curve, start)) / seconds;
      byNode.put(n.node(), rate);
      sum += rate;
    }
    return new OverlapWindow(
        step.id(), step.group(), start, end, seconds, wholeEnd - wholeStart, whole, sum, byNode);
  }

  /** Points (t, cumulative work) of a node: MB for byte workloads, ops otherwise. */
  static double[][] curve(NodeResult n, long origin, boolean bytesUnit) {
    double first = (n.firstOpUnixNanos() - origin) / 1e9;
    double last = (n.endUnixNanos() - origin) / 1e9;
    double total = bytesUnit ? n.bytes() / 1e6 : n.ops();
    List<double[]> pts = new ArrayList<>();
    pts.add(new double[] {first, 0});
    double prevWork = 0;
    for (Sample s : n.series() == null ? List.<Sample>of() : n.series()) {
      double w = bytesUnit ? s.bytes() / 1e6 : s.ops();
      if (s.t() > first && s.t() < last && w >= prevWork && w <= total) {
        pts.add(new double[] {s.t(), w});
        prevWork = w;
      }
    }
    pts.add(new double[] {last, total});
    return pts.toArray(new double[0][]);
  }

  /** Linear interpolation of cumulative work at t; clamped outside the curve. */
  static double workAt(double[][] curve, double t) {
    if (t <= curve[0][0]) {
      return curve[0][1];
    }
    for (int i = 1; i < curve.length; i++) {
      if (t <= curve[i][0]) {
        double t0 = curve[i - 1][0];
        double t1 = curve[i][0];
        double f = t1 == t0 ? 1 : (t - t0) / (t1 - t0);
        return curve[i - 1][1] + f * (curve[i][1] - curve[i - 1][1]);
      }
    }
    return curve[curve.length - 1][1];
  }
}

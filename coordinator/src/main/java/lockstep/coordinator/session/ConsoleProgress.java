package lockstep.coordinator.session;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.RunState;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.SkewText;
import lockstep.coordinator.run.RunListener;
import lockstep.coordinator.scenario.Scenario;

/**
 * Progress on the terminal. Live (stdout is a terminal): one line per node, redrawn in place, with
 * a bar, the current rate and elapsed / expected time. Plain (a pipe or file): a line when a step
 * is armed, one per node about every second while it runs, one per node at the end.
 */
public final class ConsoleProgress implements RunListener {
  private static final long PLAIN_EVERY_NANOS = 1_000_000_000L;
  private static final long LIVE_EVERY_NANOS = 200_000_000L;
  private static final int BAR = 24;

  private final PrintStream out;
  private final boolean bytesUnit;
  private final String unit;
  private final long expectedPerNode;
  private final boolean live;
  private final Map<String, NodeLine> lines = new LinkedHashMap<>();
  private String stepId;
  private int drawn;
  private long lastDraw;

  private boolean progressSamples = true;

  public ConsoleProgress(PrintStream out, boolean bytesUnit, String unit) {
    this(out, bytesUnit, unit, 0, false);
  }

  /**
   * @param expectedPerNode the work each node will do, in bytes (byte workloads) or ops; 0 if
   *     unknown
   * @param live redraw lines in place (only for a terminal)
   */
  public ConsoleProgress(
      PrintStream out, boolean bytesUnit, String unit, long expectedPerNode, boolean live) {
    this.out = out;
    this.bytesUnit = bytesUnit;
    this.unit = unit;
    this.expectedPerNode = expectedPerNode;
    this.live = live;
  }

  /** Live when stdout is an interactive terminal (and TERM is not "dumb"), plain otherwise. */
  public static ConsoleProgress forScenario(PrintStream out, Scenario scenario) {
    boolean terminal =
        out == System.out && System.console() != null && !"dumb".equals(System.getenv("TERM"));
    boolean samples = !scenario.workload().getInstrumentationOff();
    ConsoleProgress p =
        new ConsoleProgress(
            out,
            scenario.kind().countsBytes(),
            scenario.kind().unit(),
            scenario.kind().expectedWork(scenario.workload()),
            terminal && samples);
    // instrumentation: false: agents send no counts while running, so no rate lines
    p.progressSamples = samples;
    return p;
  }

  private static final class NodeLine {
    long firstAt;
    long prevAt;
    long prevWork;
    long lastPlainAt;
    long work;
    double rate;
    double elapsed;
    String state = "armed";
  }

  @Override
  public synchronized void settling(String id, String why) {
    out.printf("[%s] %s%n", id, why);
  }

  @Override
  public synchronized void stepArmed(String id, List<String> nodes, long startInMillis) {
    stepId = id;
    lines.clear();
    nodes.forEach(n -> lines.put(n, new NodeLine()));
    drawn = 0;
    out.printf(
        "[%s] %s armed, starting together in %d ms%n", id, String.join(", ", nodes), startInMillis);
    if (live) {
      draw(true);
    }
  }

  @Override
  public synchronized void progress(String id, String node, ProgressSample s, RunState state) {
    NodeLine l = lines.get(node);
    if (l == null || !id.equals(stepId)) {
      return;
    }
    long work = bytesUnit ? s.getBytes() : s.getOps();
    if (state == RunState.RUN_STATE_RUNNING || state == RunState.RUN_STATE_SUCCEEDED) {
      if (l.firstAt == 0) {
        l.firstAt = s.getAtUnixNanos();
        l.prevAt = s.getAtUnixNanos();
        l.prevWork = work;
        l.lastPlainAt = s.getAtUnixNanos();
      } else if (s.getAtUnixNanos() > l.prevAt) {
        double dt = (s.getAtUnixNanos() - l.prevAt) / 1e9;
        l.rate = (work - l.prevWork) / dt / (bytesUnit ? 1e6 : 1);
        l.prevAt = s.getAtUnixNanos();
        l.prevWork = work;
      }
      l.elapsed = (s.getAtUnixNanos() - l.firstAt) / 1e9;
    }
    l.work = work;
    l.state =
        switch (state) {
          case RUN_STATE_RUNNING -> "running";
          case RUN_STATE_SUCCEEDED -> "done";
          case RUN_STATE_FAILED -> "FAILED";
          case RUN_STATE_ABORTED -> "aborted";
          default -> "armed";
        };
    if (live) {
      long now = System.nanoTime();
      if (now - lastDraw >= LIVE_EVERY_NANOS) {
        draw(false);
      }
    } else if (progressSamples
        && state == RunState.RUN_STATE_RUNNING
        && s.getAtUnixNanos() - l.lastPlainAt >= PLAIN_EVERY_NANOS) {
      l.lastPlainAt = s.getAtUnixNanos();
      out.printf(
          Locale.ROOT,
          "[%s] %-10s %12s %s  (%d ops so far)%n",
          id,
          node,
          Verdicts.num(l.rate),
          unit,
          s.getOps());
    }
  }

  /** One node's live line: bar, share done, current rate, elapsed / expected. */
  String line(String node, NodeLine l) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "  %-10s ", node));
    if (expectedPerNode > 0) {
      double done = Math.min(1, l.work / (double) expectedPerNode);
      int full = (int) Math.round(done * BAR);
      b.append('[')
          .append("#".repeat(full))
          .append(".".repeat(BAR - full))
          .append(']')
          .append(String.format(Locale.ROOT, " %3.0f%%", done * 100));
      String expected =
          done > 0.02 && l.elapsed > 0
              ? String.format(Locale.ROOT, "~%.1f s", l.elapsed / done)
              : "?";
      b.append(
          String.format(
              Locale.ROOT,
              "  %10s %-8s %6.1f s / %s",
              Verdicts.num(l.rate),
              unit,
              l.elapsed,
              expected));
    } else {
      b.append(
          String.format(Locale.ROOT, "%10s %-8s %6.1f s", Verdicts.num(l.rate), unit, l.elapsed));
    }
    return b.append("  ").append(l.state).toString();
  }

  private void draw(boolean first) {
    List<String> text = new ArrayList<>();
    lines.forEach((n, l) -> text.add(line(n, l)));
    StringBuilder b = new StringBuilder();
    if (!first && drawn > 0) {
      b.append("\033[").append(drawn).append('A');
    }
    for (String t : text) {
      b.append('\r').append("\033[2K").append(t).append('\n');
    }
    out.print(b);
    out.flush();
    drawn = text.size();
    lastDraw = System.nanoTime();
  }

  @Override
  public synchronized void stepFinished(StepRecord step) {
    if (live && step.id().equals(stepId) && drawn > 0) {
      for (NodeResult n : step.results()) {
        NodeLine l = lines.get(n.node());
        if (l != null) {
          l.work = bytesUnit ? n.bytes() : n.ops();
          l.rate = n.throughput();
          l.elapsed = n.seconds();
          l.state = n.ok() ? "done" : n.status().toString();
        }
      }
      draw(false);
    }
    for (NodeResult n : step.results()) {
      out.printf(
          Locale.ROOT,
          "[%s] %-10s done: %s %s over %.3f s, start skew %s ms%s%n",
          step.id(),
          n.node(),
          Verdicts.num(n.throughput()),
          unit,
          n.seconds(),
          SkewText.signed(n.startSkewMillis(), n.clockUncertaintyMillis()),
          n.ok() ? "" : " (" + n.status() + ")");
    }
    step.errors().forEach(e -> out.printf("[%s] error: %s%n", step.id(), e));
    stepId = null;
  }

  @Override
  public synchronized void warmedUp(List<String> nodes, StepRecord step) {
    out.printf(
        "[warm-up] %s: an unmeasured first step for %s (the first through an agent's paths starts"
            + " late)%s%n",
        String.join(", ", nodes),
        nodes.size() == 1 ? "this fresh agent" : "these fresh agents",
        step.ok() ? "" : "; it failed: " + String.join("; ", step.errors()));
  }
}

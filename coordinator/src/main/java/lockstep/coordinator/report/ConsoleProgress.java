package lockstep.coordinator.report;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.RunState;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.run.RunListener;

/**
 * Progress lines on the terminal: one when a step is armed, one per node about every second
 * while it runs (current rate), one per node when the step ends.
 */
public final class ConsoleProgress implements RunListener {
    private static final long LINE_EVERY_NANOS = 1_000_000_000L;
    private final PrintStream out;
    private final boolean bytesUnit;
    private final String unit;
    private final Map<String, long[]> last = new ConcurrentHashMap<>();

    public ConsoleProgress(PrintStream out, boolean bytesUnit, String unit) {
        this.out = out;
        this.bytesUnit = bytesUnit;
        this.unit = unit;
    }

    @Override
    public void stepArmed(String stepId, List<String> nodes, long startInMillis) {
        out.printf("[%s] %s armed, starting together in %d ms%n", stepId, String.join(", ", nodes), startInMillis);
    }

    @Override
    public void progress(String stepId, String node, ProgressSample s, RunState state) {
        if (state != RunState.RUN_STATE_RUNNING) {
            return;
        }
        String key = stepId + "/" + node;
        long[] prev = last.get(key);
        if (prev == null) {
            last.put(key, new long[] {s.getAtUnixNanos(), s.getOps(), s.getBytes()});
            return;
        }
        long dt = s.getAtUnixNanos() - prev[0];
        if (dt < LINE_EVERY_NANOS) {
            return;
        }
        double secs = dt / 1e9;
        double rate = bytesUnit ? (s.getBytes() - prev[2]) / 1e6 / secs : (s.getOps() - prev[1]) / secs;
        last.put(key, new long[] {s.getAtUnixNanos(), s.getOps(), s.getBytes()});
        synchronized (out) {
            out.printf(Locale.ROOT, "[%s] %-10s %12s %s  (%d ops so far)%n", stepId, node, ScalingAnalysis.num(rate), unit, s.getOps());
        }
    }

    @Override
    public void stepFinished(StepRecord step) {
        synchronized (out) {
            for (NodeResult n : step.results()) {
                out.printf(Locale.ROOT, "[%s] %-10s done: %s %s over %.3f s, start skew %+.3f ms%s%n", step.id(), n.node(),
                        ScalingAnalysis.num(n.throughput()), unit, n.seconds(), n.startSkewMillis(),
                        n.ok() ? "" : " (" + n.status() + ")");
            }
            step.errors().forEach(e -> out.printf("[%s] error: %s%n", step.id(), e));
        }
    }
}

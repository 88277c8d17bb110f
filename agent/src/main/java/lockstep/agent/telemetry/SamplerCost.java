package lockstep.agent.telemetry;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import lockstep.agent.env.NodeEnvironment;

/**
 * The CPU one resource sample costs on this machine, measured on the sampling thread itself
 * (ThreadMXBean CPU time, so other load on the machine does not inflate it). Used by
 * bench/telemetry-cost.sh: {@code java -cp lockstep-agent.jar lockstep.agent.telemetry.SamplerCost
 * ROOT PERIOD_MILLIS [SAMPLES]} with the agent's sampling period (Run.SAMPLE_MILLIS).
 */
public final class SamplerCost {
  private SamplerCost() {}

  public static void main(String[] args) {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: SamplerCost ROOT PERIOD_MILLIS [SAMPLES]");
      System.exit(2);
    }
    double perSecond = 1000.0 / Long.parseLong(args[1]);
    int samples = args.length == 3 ? Integer.parseInt(args[2]) : 2000;
    Path root = Path.of(args[0]);
    ResourceSampler sampler =
        new ResourceSampler(
            Path.of("/"),
            NodeEnvironment.blockDeviceOf(root),
            () -> List.of(ProcessHandle.current().pid()));
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < samples / 4; i++) {
      sampler.sample(); // warm-up: class loading and JIT
    }
    long cpu0 = mx.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    for (int i = 0; i < samples; i++) {
      sampler.sample();
    }
    double cpuMicros = (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / samples;
    double wallMicros = (System.nanoTime() - wall0) / 1e3 / samples;
    System.out.printf(
        Locale.ROOT,
        "one sample: %.1f us CPU (%.1f us wall) over %d samples, device '%s'; "
            + "at %.0f samples/s that is %.3f%% of one CPU%n",
        cpuMicros,
        wallMicros,
        samples,
        sampler.device(),
        perSecond,
        cpuMicros * perSecond / 1e6 * 100);
  }
}

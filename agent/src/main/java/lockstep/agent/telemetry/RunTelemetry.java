package lockstep.agent.telemetry;

import lockstep.common.WallClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.ResourceTelemetry;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The resource samples of one run, taken on a thread of their own: one when the run is armed,
 * one at the start instant (together the idle baseline), then one every period until
 * {@link #finish}, which takes the last. The measured threads never wait for it.
 */
public final class RunTelemetry {
    private static final Logger LOG = LogManager.getLogger(RunTelemetry.class);

    private final ResourceSampler sampler;
    private final long startAtUnixNanos;
    private final List<ResourceSample> baseline = new ArrayList<>();
    private final List<ResourceSample> samples = new ArrayList<>();
    private final ScheduledExecutorService thread;

    private RunTelemetry(ResourceSampler sampler, long startAtUnixNanos, String name) {
        this.sampler = sampler;
        this.startAtUnixNanos = startAtUnixNanos;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "telemetry-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Takes the first baseline sample now and schedules the rest. */
    public static RunTelemetry start(ResourceSampler sampler, long startAtUnixNanos, long periodMillis, String name) {
        RunTelemetry t = new RunTelemetry(sampler, startAtUnixNanos, name);
        t.thread.execute(t::take);
        long delayNanos = Math.max(0, startAtUnixNanos - WallClock.nowNanos());
        t.thread.scheduleAtFixedRate(t::take, delayNanos, TimeUnit.MILLISECONDS.toNanos(periodMillis), TimeUnit.NANOSECONDS);
        return t;
    }

    private void take() {
        try {
            ResourceSample s = sampler.sample();
            synchronized (this) {
                if (s.getAtUnixNanos() < startAtUnixNanos) {
                    baseline.add(s);
                } else {
                    if (samples.isEmpty()) {
                        baseline.add(s);
                    }
                    samples.add(s);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("resource sample failed: {}", e.toString());
        }
    }

    /** Stops sampling, takes the last sample and returns all of them. */
    public ResourceTelemetry finish() {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("telemetry thread did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        take();
        synchronized (this) {
            return ResourceTelemetry.newBuilder()
                    .setDevice(sampler.device())
                    .addAllSlaveDevices(sampler.slaveDevices())
                    .putAllLinkSpeedMbps(sampler.linkSpeeds())
                    .setCpuCount(sampler.cpuCount())
                    .addAllBaseline(baseline)
                    .addAllSamples(samples)
                    .build();
        }
    }
}

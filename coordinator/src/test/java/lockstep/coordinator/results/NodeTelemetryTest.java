package lockstep.coordinator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.ResourceTelemetry;
import lockstep.coordinator.agent.ClockOffset;
import lockstep.coordinator.model.Latency;
import lockstep.coordinator.model.NodeResources;
import lockstep.coordinator.model.ResourceFigures;
import org.junit.jupiter.api.Test;

class NodeTelemetryTest {
  static final long S = 1_000_000_000L;
  static final long T0 = 1_700_000_000L * S;

  /** A sample at T0 + seconds with counters grown by the given factors per second. */
  static ResourceSample at(
      double seconds,
      long busyTicksPerS,
      long idleTicksPerS,
      long iowaitPerS,
      long workloadPerS,
      long ioMillisPerS,
      long sectorsPerS,
      long loBytesPerS,
      long ethBytesPerS,
      long dirty) {
    long t = (long) (seconds * 1000);
    return ResourceSample.newBuilder()
        .setAtUnixNanos(T0 + (long) (seconds * S))
        .setCpu(
            CpuTicks.newBuilder()
                .setUser(busyTicksPerS * t / 1000 / 2)
                .setSystem(busyTicksPerS * t / 1000 / 2)
                .setIdle(idleTicksPerS * t / 1000)
                .setIowait(iowaitPerS * t / 1000))
        .setContextSwitches(1000 * t / 1000)
        .setWorkloadCpuTicks(workloadPerS * t / 1000)
        .addDisks(
            DiskCounters.newBuilder()
                .setDevice("vda")
                .setWrites(100 * t / 1000)
                .setSectorsWritten(sectorsPerS * t / 1000)
                .setWriteMillis(200 * t / 1000)
                .setIoMillis(ioMillisPerS * t / 1000)
                .setWeightedIoMillis(2 * ioMillisPerS * t / 1000))
        .addInterfaces(
            NetCounters.newBuilder()
                .setName("lo")
                .setRxBytes(loBytesPerS * t / 1000)
                .setTxBytes(loBytesPerS * t / 1000))
        .addInterfaces(NetCounters.newBuilder().setName("eth0").setTxBytes(ethBytesPerS * t / 1000))
        .setDirtyBytes(dirty)
        .build();
  }

  @Test
  void ratesAndSharesOverTheRunAndEachInterval() {
    ResourceTelemetry t =
        ResourceTelemetry.newBuilder()
            .setDevice("vda")
            .setCpuCount(2)
            .putLinkSpeedMbps("eth0", 1000)
            .addBaseline(at(-0.5, 20, 180, 0, 2, 100, 0, 0, 0, 4096))
            .addBaseline(at(0, 20, 180, 0, 2, 100, 0, 0, 0, 4096))
            .addSamples(at(0, 150, 30, 20, 120, 970, 200_000, 1_000_000, 118_000_000, 4096))
            .addSamples(at(1, 150, 30, 20, 120, 970, 200_000, 1_000_000, 118_000_000, 8192))
            .addSamples(at(2, 150, 30, 20, 120, 970, 200_000, 1_000_000, 118_000_000, 1 << 20))
            .build();
    // agent clock 3 ms ahead of the coordinator's; intended start 100 ms before the agent's T0
    ClockOffset clock = new ClockOffset(3_000_000, 1_000_000, 9);
    NodeResources r = NodeTelemetry.of(t, clock, T0 - 3_000_000 - 100_000_000, null, 1, 2, false);
    ResourceFigures run = r.run();
    assertThat(run.seconds()).isEqualTo(2.0);
    assertThat(run.cpuBusyPercent()).isCloseTo(75, within(0.01));
    assertThat(run.iowaitPercent()).isCloseTo(10, within(0.01));
    assertThat(run.idlePercent()).isCloseTo(15, within(0.01));
    assertThat(run.workloadCpuPercent()).isCloseTo(60, within(0.01));
    assertThat(run.contextSwitchesPerSecond()).isCloseTo(1000, within(0.01));
    var d = run.busiestDevice();
    assertThat(d.device()).isEqualTo("vda");
    assertThat(d.busyPercent()).isCloseTo(97, within(0.01));
    assertThat(d.queueDepth()).isCloseTo(1.94, within(0.001));
    assertThat(d.writeMBps()).isCloseTo(200_000 * 512 / 1e6, within(0.001));
    assertThat(d.writesPerSecond()).isCloseTo(100, within(0.01));
    assertThat(d.awaitMillis()).isCloseTo(2, within(0.001));
    var eth = run.busiestInterface();
    assertThat(eth.name()).isEqualTo("eth0");
    assertThat(eth.linkPercent()).isCloseTo(94.4, within(0.01));
    assertThat(
            run.interfaces().stream()
                .filter(i -> i.name().equals("lo"))
                .findFirst()
                .orElseThrow()
                .linkPercent())
        .isNull();
    assertThat(run.dirtyBytes()).isEqualTo(1 << 20);
    assertThat(run.dirtyBytesGrowth()).isEqualTo((1 << 20) - 4096);
    assertThat(r.baseline().cpuBusyPercent()).isCloseTo(10, within(0.01));
    assertThat(r.baseline().busiestDevice().busyPercent()).isCloseTo(10, within(0.01));
    assertThat(r.series()).hasSize(2);
    assertThat(r.series().get(0).t()).isCloseTo(1.1, within(1e-9));
    assertThat(r.series().get(1).netMBps()).isCloseTo(119, within(0.01));
    assertThat(r.lockWaitShare()).isNull();
  }

  @Test
  void noSamplesNoResources() {
    assertThat(
            NodeTelemetry.of(
                ResourceTelemetry.getDefaultInstance(),
                new ClockOffset(0, 0, 1),
                T0,
                null,
                1,
                1,
                false))
        .isNull();
  }

  @Test
  void countersThatWentBackCountAsNoGrowth() {
    ResourceSample a = at(1, 100, 100, 0, 10, 100, 100, 100, 100, 0);
    ResourceSample b =
        at(2, 100, 100, 0, 10, 100, 100, 100, 100, 0).toBuilder()
            .setCpu(CpuTicks.newBuilder().setUser(1).setIdle(1))
            .setContextSwitches(0)
            .build();
    ResourceFigures f = NodeTelemetry.figures(a, b, java.util.Map.of());
    assertThat(f.cpuBusyPercent()).isZero();
    assertThat(f.contextSwitchesPerSecond()).isZero();
    assertThat(NodeTelemetry.figures(a, a, java.util.Map.of())).isNull();
  }

  @Test
  void lockWaitShareIsTheLatencySumOverWorkerTime() {
    // 10 workers, 2 s: 1000 ops of 18 ms each = 18 s of 20 worker-seconds
    Latency l = new Latency(1000, 18_000, 0, 0, 0, 0, 0);
    assertThat(NodeTelemetry.lockWaitShare(l, 10, 2)).isCloseTo(0.9, within(1e-9));
    assertThat(NodeTelemetry.lockWaitShare(new Latency(1000, 90_000, 0, 0, 0, 0, 0), 10, 2))
        .isEqualTo(1.0);
    assertThat(NodeTelemetry.lockWaitShare(l, 0, 2)).isNull();
    assertThat(NodeTelemetry.lockWaitShare(l, 10, 0)).isNull();
  }
}

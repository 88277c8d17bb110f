package lockstep.agent.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.ResourceSample;
import lockstep.agent.v1.ResourceTelemetry;
import lockstep.common.WallClock;
import lockstep.testsupport.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSamplerTest {
  @TempDir Path base;

  private void write(String relative, String text) throws IOException {
    TestFiles.write(base, relative, text);
  }

  private void tree() throws IOException {
    write(
        "proc/stat",
        "cpu  100 0 50 800 40 0 10 0 0 0\n"
            + "cpu0 50 0 25 400 20 0 5 0 0 0\n"
            + "cpu1 50 0 25 400 20 0 5 0 0 0\n"
            + "ctxt 5000\n");
    write(
        "proc/diskstats",
        " 253 0 dm-0 1 0 8 1 2 0 16 1 0 3 2\n"
            + "   8 0 sda 10 0 80 5 20 0 160 7 0 30 12\n"
            + "   8 16 sdb 1 0 8 1 2 0 16 1 0 3 2\n");
    write(
        "proc/net/dev",
        "h\n"
            + "h\n"
            + "    lo: 100 2 0 0 0 0 0 0 100 2 0 0 0 0 0 0\n"
            + "  eth0: 500 5 0 0 0 0 0 0 700 7 0 0 0 0 0 0\n");
    write("proc/meminfo", "Dirty: 10 kB\nWriteback: 2 kB\n");
    write("proc/7/stat", "7 (java) S 1 7 7 0 -1 0 0 0 0 0 30 12 0 0 20 0 1 0 1 0 0");
    write("proc/8/stat", "8 (java) S 1 7 7 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 1 0 0");
    write("sys/block/dm-0/slaves/sda", "");
    write("sys/class/net/eth0/speed", "1000\n");
    write("sys/class/net/lo/speed", "-1\n");
  }

  @Test
  void samplesTheDeviceItsSlavesAndTheWorkloadProcesses() throws IOException {
    tree();
    ResourceSampler s = new ResourceSampler(base, "dm-0", () -> List.of(7L, 8L));
    assertThat(s.slaveDevices()).containsExactly("sda");
    assertThat(s.cpuCount()).isEqualTo(2);
    assertThat(s.linkSpeeds()).containsOnlyKeys("eth0").containsEntry("eth0", 1000L);
    ResourceSample r = s.sample();
    assertThat(r.getCpu().getUser()).isEqualTo(100);
    assertThat(r.getContextSwitches()).isEqualTo(5000);
    assertThat(r.getWorkloadCpuTicks()).isEqualTo(30 + 12 + 5 + 5);
    assertThat(r.getDisksList()).extracting(DiskCounters::getDevice).containsExactly("dm-0", "sda");
    assertThat(r.getInterfacesCount()).isEqualTo(2);
    assertThat(r.getDirtyBytes()).isEqualTo(10 * 1024);
    assertThat(r.getWritebackBytes()).isEqualTo(2 * 1024);
  }

  @Test
  void aWorkerThatExitedKeepsTheTicksItHadUsed() throws IOException {
    tree();
    ResourceSampler s = new ResourceSampler(base, "sda", () -> List.of(7L, 8L));
    assertThat(s.sample().getWorkloadCpuTicks()).isEqualTo(52);
    Files.delete(base.resolve("proc/8/stat"));
    write("proc/7/stat", "7 (java) S 1 7 7 0 -1 0 0 0 0 0 40 12 0 0 20 0 1 0 1 0 0");
    assertThat(s.sample().getWorkloadCpuTicks()).isEqualTo(52 + 10);
  }

  @Test
  void noBlockDeviceMeansNoDiskCounters() throws IOException {
    tree();
    ResourceSampler s = new ResourceSampler(base, "", List::of);
    assertThat(s.sample().getDisksList()).isEmpty();
    assertThat(s.slaveDevices()).isEmpty();
  }

  @Test
  void theRealMachineGivesCountersThatMove() {
    ResourceSampler s =
        new ResourceSampler(Path.of("/"), "", () -> List.of(ProcessHandle.current().pid()));
    ResourceSample a = s.sample();
    long x = 0;
    for (int i = 0; i < 20_000_000; i++) {
      x += Long.numberOfTrailingZeros(i ^ x);
    }
    ResourceSample b = s.sample();
    assertThat(x).isNotZero();
    assertThat(b.getCpu().getUser() + b.getCpu().getSystem())
        .isGreaterThanOrEqualTo(a.getCpu().getUser() + a.getCpu().getSystem());
    assertThat(b.getContextSwitches()).isGreaterThan(0);
    assertThat(b.getInterfacesList()).anyMatch(n -> n.getName().equals("lo"));
    assertThat(b.getWorkloadCpuTicks()).isGreaterThan(0);
  }

  @Test
  void runTelemetryTakesABaselineBeforeTheStartAndSamplesAfterIt() throws Exception {
    tree();
    ResourceSampler s = new ResourceSampler(base, "sda", List::of);
    s.sample(); // classes loaded, so the first baseline sample comes well before the start
    long startAt = WallClock.nowNanos() + 1_000_000_000L;
    RunTelemetry t = RunTelemetry.start(s, startAt, 50, "test");
    WallClockWait.until(startAt + 200_000_000L, () -> false);
    ResourceTelemetry r = t.finish();
    assertThat(r.getBaselineList()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(r.getBaselineList().get(0).getAtUnixNanos()).isLessThan(startAt);
    assertThat(r.getSamplesList()).hasSizeGreaterThanOrEqualTo(3);
    // the edge sample is scheduled just before the instant (not at it, where the workload's
    // threads wake); the periodic ones from one period after it
    assertThat(r.getSamplesList().subList(1, r.getSamplesCount()))
        .allMatch(x -> x.getAtUnixNanos() >= startAt + 50_000_000L);
    assertThat(r.getBaseline(r.getBaselineCount() - 1)).isEqualTo(r.getSamples(0));
    assertThat(r.getDevice()).isEqualTo("sda");
    assertThat(r.getCpuCount()).isEqualTo(2);
  }

  @Test
  void aSampleThatCostsMoreThanTheBudgetStretchesThePeriod() {
    long period = 100_000_000L;
    // the host's sample (0.17 ms of CPU) keeps the period; an emulated guest's (5.5 ms) waits
    // 100 times its cost, so the sampler stays at 1% of one CPU
    assertThat(RunTelemetry.nextDelayNanos(period, 170_000L)).isEqualTo(period);
    assertThat(RunTelemetry.nextDelayNanos(period, 5_500_000L)).isEqualTo(550_000_000L);
    assertThat(RunTelemetry.nextDelayNanos(period, 1_000_000L)).isEqualTo(period);
    assertThat(RunTelemetry.nextDelayNanos(period, Long.MAX_VALUE))
        .as("no sample yet")
        .isEqualTo(period);
  }
}

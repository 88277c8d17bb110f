package lockstep.agent.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import lockstep.agent.v1.CpuTicks;
import lockstep.agent.v1.DiskCounters;
import lockstep.agent.v1.NetCounters;
import org.junit.jupiter.api.Test;

/**
 * Parsers on files captured from a Debian 12 VM (src/test/resources/telemetry) and on constructed
 * text.
 */
class ProcParsersTest {

  static String resource(String name) throws IOException {
    try (InputStream in = ProcParsersTest.class.getResourceAsStream("/telemetry/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  @Test
  void cpuLineOfRealProcStat() throws IOException {
    // cpu  19709 0 13594 21447 1078 0 404 0 0 0
    CpuTicks c = ProcParsers.cpu(resource("stat"));
    assertThat(c.getUser()).isEqualTo(19709);
    assertThat(c.getSystem()).isEqualTo(13594);
    assertThat(c.getIdle()).isEqualTo(21447);
    assertThat(c.getIowait()).isEqualTo(1078);
    assertThat(c.getSoftirq()).isEqualTo(404);
    assertThat(c.getSteal()).isZero();
    assertThat(ProcParsers.contextSwitches(resource("stat"))).isEqualTo(1034752);
  }

  @Test
  void cpuLineTakesTheAggregateNotAPerCpuLineAndToleratesShortLines() {
    String text = "cpu0 1 2 3 4 5 6 7 8\ncpu  10 20 30 40\nintr 5\n";
    CpuTicks c = ProcParsers.cpu(text);
    assertThat(c.getUser()).isEqualTo(10);
    assertThat(c.getNice()).isEqualTo(20);
    assertThat(c.getIdle()).isEqualTo(40);
    assertThat(c.getIowait()).isZero();
    assertThat(c.getSteal()).isZero();
    assertThat(ProcParsers.cpu("garbage")).isEqualTo(CpuTicks.getDefaultInstance());
    assertThat(ProcParsers.contextSwitches("cpu 1 2\n")).isZero();
  }

  @Test
  void stealIsTheEighthValue() {
    CpuTicks c = ProcParsers.cpu("cpu  1 2 3 4 5 6 7 88 0 0\n");
    assertThat(c.getSteal()).isEqualTo(88);
    assertThat(c.getIrq()).isEqualTo(6);
  }

  @Test
  void processTicksOfRealPidStat() throws IOException {
    // utime 90, stime 228 (fields 14 and 15 of /proc/1/stat)
    assertThat(ProcParsers.processCpuTicks(resource("pid-stat"))).isEqualTo(90 + 228);
  }

  @Test
  void processTicksCountFieldsAfterACommandNameWithSpacesAndParentheses() {
    String stat = "42 (my (odd) worker) R 1 42 42 0 -1 4194304 10 0 0 0 7 3 0 0 20 0 1 0 100 0 0";
    assertThat(ProcParsers.processCpuTicks(stat)).isEqualTo(10);
    assertThat(ProcParsers.processCpuTicks("")).isEqualTo(-1);
    assertThat(ProcParsers.processCpuTicks("42 (x) R 1 2")).isEqualTo(-1);
  }

  @Test
  void diskstatsOfTheRootDevice() throws IOException {
    // 254 0 vda 74101 23541 2410138 22676 60719 29181 5882752 57535 0 27076 89009 ...
    var disks = ProcParsers.disks(resource("diskstats"), Set.of("vda"));
    assertThat(disks).hasSize(1);
    DiskCounters d = disks.get(0);
    assertThat(d.getDevice()).isEqualTo("vda");
    assertThat(d.getReads()).isEqualTo(74101);
    assertThat(d.getSectorsRead()).isEqualTo(2410138);
    assertThat(d.getReadMillis()).isEqualTo(22676);
    assertThat(d.getWrites()).isEqualTo(60719);
    assertThat(d.getSectorsWritten()).isEqualTo(5882752);
    assertThat(d.getWriteMillis()).isEqualTo(57535);
    assertThat(d.getIoMillis()).isEqualTo(27076);
    assertThat(d.getWeightedIoMillis()).isEqualTo(89009);
    assertThat(ProcParsers.disks(resource("diskstats"), Set.of("sdz"))).isEmpty();
  }

  @Test
  void diskstatsOfADeviceMapperDeviceAndItsSlaveOnAnOldKernelWithFourteenColumns() {
    String text =
        "   8       0 sda 10 0 80 5 20 0 160 7 0 30 12\n"
            + " 253       0 dm-0 1 0 8 1 2 0 16 1 0 3 2\n"
            + "   8       1 sda1 1 0 8 1 2 0 16 1 0 3 2\n";
    var disks = ProcParsers.disks(text, Set.of("dm-0", "sda"));
    assertThat(disks).extracting(DiskCounters::getDevice).containsExactly("sda", "dm-0");
    assertThat(disks.get(0).getIoMillis()).isEqualTo(30);
    assertThat(disks.get(0).getWeightedIoMillis()).isEqualTo(12);
  }

  @Test
  void netDevOfRealFile() throws IOException {
    var ifs = ProcParsers.interfaces(resource("net-dev"));
    assertThat(ifs).extracting(NetCounters::getName).contains("lo", "eth0");
    NetCounters lo = ifs.stream().filter(n -> n.getName().equals("lo")).findFirst().orElseThrow();
    // lo:   78519     256    0    0    0     0          0         0    78519     256 ...
    assertThat(lo.getRxBytes()).isEqualTo(78519);
    assertThat(lo.getRxPackets()).isEqualTo(256);
    assertThat(lo.getTxBytes()).isEqualTo(78519);
    assertThat(lo.getTxPackets()).isEqualTo(256);
  }

  @Test
  void netDevWithoutSpaceAfterTheColonAndHeaderLinesSkipped() {
    String text =
        "Inter-|   Receive |  Transmit\n face |bytes packets|bytes\n"
            + "eth1:123456 7 0 0 0 0 0 0 654321 9 0 0 0 0 0 0\n";
    var ifs = ProcParsers.interfaces(text);
    assertThat(ifs).hasSize(1);
    assertThat(ifs.get(0).getName()).isEqualTo("eth1");
    assertThat(ifs.get(0).getRxBytes()).isEqualTo(123456);
    assertThat(ifs.get(0).getTxBytes()).isEqualTo(654321);
    assertThat(ifs.get(0).getTxPackets()).isEqualTo(9);
  }

  @Test
  void meminfoDirtyAndWritebackInBytes() throws IOException {
    assertThat(ProcParsers.meminfoBytes(resource("meminfo"), "Dirty")).isEqualTo(29812L * 1024);
    assertThat(ProcParsers.meminfoBytes(resource("meminfo"), "Writeback")).isZero();
    String text = "Dirty:  1800000 kB\nWritebackTmp:   5 kB\nWriteback:   12 kB\n";
    assertThat(ProcParsers.meminfoBytes(text, "Dirty")).isEqualTo(1_843_200_000L);
    assertThat(ProcParsers.meminfoBytes(text, "Writeback")).isEqualTo(12 * 1024);
    assertThat(ProcParsers.meminfoBytes(text, "Missing")).isZero();
  }

  @Test
  void linkSpeedUnknownIsZero() {
    assertThat(ProcParsers.linkSpeedMbps("1000\n")).isEqualTo(1000);
    assertThat(ProcParsers.linkSpeedMbps("-1\n")).isZero();
    assertThat(ProcParsers.linkSpeedMbps("")).isZero();
  }

  @Test
  void numbersThatDoNotFitReadAsUnknown() {
    assertThat(ProcParsers.number("18446744073709551615")).isEqualTo(-1);
    assertThat(ProcParsers.number("9999999999999999999")).isEqualTo(-1);
    assertThat(ProcParsers.number("12a")).isEqualTo(-1);
    assertThat(ProcParsers.number("42")).isEqualTo(42);
  }
}

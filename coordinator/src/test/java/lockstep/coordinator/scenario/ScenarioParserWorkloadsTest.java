package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.FileClose;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.LockRelease;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.PingPongIo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioParserWorkloadsTest {
  private static Scenario parse(String workload) {
    return new ScenarioParser().parse("name: t\nworkload:\n" + workload.indent(2), "t.yaml");
  }

  @Test
  void everyExampleParses() throws Exception {
    try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
      assertThat(
              files
                  .filter(f -> f.toString().endsWith(".yaml"))
                  .map(f -> new ScenarioParser().parse(f).workloadType()))
          .containsExactlyInAnyOrder(
              "write",
              "write",
              "read",
              "lock-files",
              "lock-files",
              "ping-pong",
              "hot-lock",
              "metadata");
    }
  }

  @Test
  void pingPong() {
    Scenario s =
        parse(
            "type: ping-pong\n"
                + "io: read-write\n"
                + "slots: 5\n"
                + "processes: 2\n"
                + "duration: 2s\n"
                + "warmup: 100ms\n"
                + "lock: ofd");
    var p = s.workload().getPingPong();
    assertThat(p.getFile()).isEqualTo("ping-pong.dat");
    assertThat(p.getIo()).isEqualTo(PingPongIo.PING_PONG_IO_READ_WRITE);
    assertThat(p.getSlots()).isEqualTo(5);
    assertThat(p.getDurationMillis()).isEqualTo(2000);
    assertThat(p.getWarmupMillis()).isEqualTo(100);
    assertThat(p.getLock()).isEqualTo(LockKind.LOCK_KIND_OFD);
    assertThat(s.kind().unit()).isEqualTo("locks/s");
    assertThat(s.kind().opName()).isEqualTo("lock");
  }

  @Test
  void pingPongSlotsAreCheckedAgainstTheNodes() {
    assertThatThrownBy(
            () ->
                new ScenarioParser()
                    .parse(
                        "name: t\nagents: [a:1, b:2]\nworkload:\n  type: ping-pong\n  slots: 2\n",
                        "t.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "scenario t.yaml: workload.slots: 2 slots for 2 participants (2 node(s) x 1"
                + " process(es)); the ring needs at least 3 or it deadlocks");
    Scenario s = parse("type: ping-pong\nslots: 3");
    ScenarioParser.checkNodeCount(s, 2, "x");
    assertThatThrownBy(() -> ScenarioParser.checkNodeCount(s, 3, "x"))
        .hasMessageContaining("workload.slots");
  }

  @Test
  void lockFilesVariants() {
    var l =
        parse(
                "type: lock-files\n"
                    + "lock: ofd\n"
                    + "lock-mode: shared\n"
                    + "lock-wait: try\n"
                    + "release: unlock-each\n"
                    + "close: each")
            .workload()
            .getLockFiles();
    assertThat(l.getLock()).isEqualTo(LockKind.LOCK_KIND_OFD);
    assertThat(l.getShared()).isTrue();
    assertThat(l.getTryLock()).isTrue();
    assertThat(l.getRelease()).isEqualTo(LockRelease.LOCK_RELEASE_UNLOCK_EACH);
    assertThat(l.getClose()).isEqualTo(FileClose.FILE_CLOSE_EACH);
    var seed = parse("type: lock-files").workload().getLockFiles();
    assertThat(seed.getRelease()).isEqualTo(LockRelease.LOCK_RELEASE_HOLD);
    assertThat(seed.getClose()).isEqualTo(FileClose.FILE_CLOSE_END);
    assertThat(seed.getProcesses()).isEqualTo(10);
    assertThat(seed.getFiles()).isEqualTo(1000);
  }

  @Test
  void readWriteMetadataHotLock() {
    var r =
        parse(
                "type: read\n"
                    + "size: 1MiB\n"
                    + "block-size: 4KiB\n"
                    + "pattern: random\n"
                    + "threads: 4\n"
                    + "o-direct: true")
            .workload()
            .getRead();
    assertThat(r.getPattern()).isEqualTo(AccessPattern.ACCESS_PATTERN_RANDOM);
    assertThat(r.getThreads()).isEqualTo(4);
    assertThat(parse("type: read\nsize: 1MiB").kind().unit()).isEqualTo("MB/s");
    var m = parse("type: metadata\nops: [unlink, create]\ndepth: 2").workload().getMetadata();
    assertThat(m.getOpsList())
        .containsExactly(MetadataOp.METADATA_OP_CREATE, MetadataOp.METADATA_OP_UNLINK);
    assertThat(parse("type: metadata").kind().unit()).isEqualTo("ops/s");
    var h = parse("type: hot-lock\nlock: flock\nthreads: 3\nhold: 50us").workload().getHotLock();
    assertThat(h.getHoldMicros()).isEqualTo(50);
    assertThat(h.getThreads()).isEqualTo(3);
  }

  static Stream<Arguments> badWorkloads() {
    return Stream.of(
        Arguments.of("type: ping-pong\nfile: pp.{node}", "workload.file"),
        Arguments.of("type: ping-pong\nlock: flock", "workload.lock"),
        Arguments.of("type: ping-pong\nio: sometimes", "workload.io"),
        Arguments.of("type: ping-pong\nduration: 1ms", "workload.duration"),
        Arguments.of("type: hot-lock\nthreads: 2", "workload.threads"),
        Arguments.of("type: hot-lock\nlock-mode: both", "workload.lock-mode"),
        Arguments.of("type: hot-lock\nlock-wait: maybe", "workload.lock-wait"),
        Arguments.of("type: lock-files\nrelease: never", "workload.release"),
        Arguments.of("type: lock-files\nclose: sometimes", "workload.close"),
        Arguments.of("type: metadata\nops: [create, create]", "workload.ops"),
        Arguments.of("type: metadata\nops: [chmod]", "workload.ops"),
        Arguments.of("type: metadata\ndepth: 100", "workload.depth"),
        Arguments.of("type: read\nsize: 8KiB\nthreads: 4\nblock-size: 4KiB", "workload.threads"),
        Arguments.of("type: write\nsize: 1MiB\npattern: zigzag", "workload.pattern"),
        Arguments.of("type: read", "workload.size"),
        Arguments.of("type: fsck", "workload.type"),
        Arguments.of("type: hot-lock\nslots: 3", "workload.slots"));
  }

  @ParameterizedTest
  @MethodSource("badWorkloads")
  void badFieldsAreNamed(String workload, String field) {
    assertThatThrownBy(() -> parse(workload))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("scenario t.yaml: " + field + ":");
  }
}

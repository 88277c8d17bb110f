package lockstep.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.LockRelease;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import org.junit.jupiter.api.Test;

/** The one description of each workload type, held against the proto it describes. */
class WorkloadKindTest {
  @Test
  void everyWorkloadOfTheProtoHasExactlyOneKind() {
    Set<WorkloadSpec.KindCase> described = new HashSet<>();
    for (WorkloadKind<?> k : WorkloadKind.ALL) {
      assertThat(described.add(k.specCase())).as(k.name()).isTrue();
    }
    for (WorkloadSpec.KindCase c : WorkloadSpec.KindCase.values()) {
      if (c != WorkloadSpec.KindCase.KIND_NOT_SET) {
        assertThat(described).as("a kind for " + c).contains(c);
      }
    }
    assertThat(WorkloadKind.names())
        .containsExactly("write", "read", "lock-files", "ping-pong", "hot-lock", "metadata")
        .doesNotHaveDuplicates();
  }

  @Test
  void everyFieldNamesAProtoFieldOfItsTypeAndNoFieldIsListedTwice() {
    for (WorkloadKind<?> k : WorkloadKind.ALL) {
      Message.Builder b = k.newMessageBuilder();
      Set<String> yaml = new HashSet<>();
      for (WorkloadField f : k.fields()) {
        assertThat(yaml.add(f.yamlName())).as(k + "." + f.yamlName()).isTrue();
        FieldDescriptor fd = b.getDescriptorForType().findFieldByName(f.protoName());
        assertThat(fd).as(k + "." + f.yamlName() + " -> " + f.protoName()).isNotNull();
        FieldDescriptor.JavaType expected =
            switch (f.type()) {
              case PATH -> FieldDescriptor.JavaType.STRING;
              case FLAG, CHOICE -> FieldDescriptor.JavaType.BOOLEAN;
              case WORDS, WORD_LIST -> FieldDescriptor.JavaType.ENUM;
              case SIZE, COUNT -> fd.getJavaType(); // int or long, by the proto
              case DURATION_MILLIS, DURATION_MICROS -> FieldDescriptor.JavaType.LONG;
            };
        assertThat(fd.getJavaType()).as(k + "." + f.yamlName()).isEqualTo(expected);
        assertThat(fd.isRepeated()).isEqualTo(f.type() == WorkloadField.Type.WORD_LIST);
      }
    }
  }

  @Test
  void everyProtoFieldOfAKindIsReachableFromAScenario() {
    for (WorkloadKind<?> k : WorkloadKind.ALL) {
      List<String> mapped = k.fields().stream().map(WorkloadField::protoName).toList();
      for (FieldDescriptor fd : k.newMessageBuilder().getDescriptorForType().getFields()) {
        assertThat(mapped).as(k + " field " + fd.getName()).contains(fd.getName());
      }
    }
  }

  @Test
  void enumWordsAreTheProtoNamesWithoutTheirPrefix() {
    assertThat(WorkloadField.wordsOf(LockRelease.getDescriptor()))
        .containsExactly("hold", "unlock-each");
    assertThat(WorkloadField.wordsOf(PingPongIo.getDescriptor()))
        .containsExactly("none", "read", "write", "read-write");
    assertThat(WorkloadField.valueOf(PingPongIo.getDescriptor(), "read-write").getNumber())
        .isEqualTo(PingPongIo.PING_PONG_IO_READ_WRITE_VALUE);
    assertThat(WorkloadField.valueOf(PingPongIo.getDescriptor(), "unspecified")).isNull();
  }

  @Test
  void theFiguresTheAgentAsksComeFromTheKind() {
    WorkloadSpec lockFiles =
        WorkloadKind.LOCK_FILES.spec(
            LockFilesWorkload.newBuilder().setProcesses(10).setFiles(1000).build());
    assertThat(WorkloadKind.of(lockFiles)).isSameAs(WorkloadKind.LOCK_FILES);
    assertThat(WorkloadKind.LOCK_FILES.filesCreated(lockFiles)).isEqualTo(10_000);
    assertThat(WorkloadKind.LOCK_FILES.workers(lockFiles)).isEqualTo(10);
    assertThat(WorkloadKind.LOCK_FILES.openFilesPerWorker(lockFiles)).isEqualTo(1000);
    assertThat(WorkloadKind.LOCK_FILES.expectedWork(lockFiles)).isEqualTo(10_000);
    WorkloadSpec hot =
        WorkloadKind.HOT_LOCK.spec(
            HotLockWorkload.newBuilder()
                .setProcesses(3)
                .setThreads(4)
                .setDurationMillis(5000)
                .build());
    assertThat(WorkloadKind.HOT_LOCK.workers(hot)).isEqualTo(12);
    assertThat(WorkloadKind.HOT_LOCK.timedMillis(hot)).isEqualTo(5000);
    assertThat(WorkloadKind.HOT_LOCK.filesCreated(hot)).isEqualTo(1);
    WorkloadSpec write =
        WorkloadKind.WRITE.spec(WriteWorkload.newBuilder().setSizeBytes(1 << 20).build());
    assertThat(WorkloadKind.WRITE.bytesToLayOut(write)).isEqualTo(1 << 20);
    assertThat(WorkloadKind.WRITE.workers(write)).isEqualTo(1);
    assertThat(WorkloadKind.WRITE.countsBytes()).isTrue();
    assertThat(WorkloadKind.named("ping-pong").takesLocks()).isTrue();
    assertThat(WorkloadKind.named("nope")).isNull();
    assertThatThrownBy(() -> WorkloadKind.HOT_LOCK.message(write))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WorkloadKind.of(WorkloadSpec.getDefaultInstance()))
        .hasMessage("workload.type: no workload given");
  }

  @Test
  void onlyPingPongWithReadWriteChecksCoherence() {
    WorkloadSpec readWrite =
        WorkloadKind.PING_PONG.spec(
            PingPongWorkload.newBuilder().setIo(PingPongIo.PING_PONG_IO_READ_WRITE).build());
    WorkloadSpec readOnly =
        WorkloadKind.PING_PONG.spec(
            PingPongWorkload.newBuilder().setIo(PingPongIo.PING_PONG_IO_READ).build());
    assertThat(WorkloadKind.PING_PONG.checksCoherence(readWrite)).isTrue();
    assertThat(WorkloadKind.PING_PONG.checksCoherence(readOnly)).isFalse();
    assertThat(WorkloadKind.PING_PONG.coherenceNote()).isEqualTo("with io: read-write");
    assertThat(WorkloadKind.ALL.stream().filter(WorkloadKind::canCheckCoherence))
        .containsExactly(WorkloadKind.PING_PONG);
    WorkloadSpec write = WorkloadKind.WRITE.spec(WriteWorkload.getDefaultInstance());
    assertThat(WorkloadKind.WRITE.checksCoherence(write)).isFalse();
  }

  @Test
  void theAnalysisAsksTheKindWhetherWritesStayInThePageCacheAndHowLongTheWarmUpIs() {
    WorkloadSpec buffered = WorkloadKind.WRITE.spec(WriteWorkload.getDefaultInstance());
    WorkloadSpec synced =
        WorkloadKind.WRITE.spec(WriteWorkload.newBuilder().setFdatasync(true).build());
    WorkloadSpec direct =
        WorkloadKind.WRITE.spec(WriteWorkload.newBuilder().setODirect(true).build());
    assertThat(WorkloadKind.WRITE.pageCacheWrites(buffered)).isTrue();
    assertThat(WorkloadKind.WRITE.pageCacheWrites(synced)).isFalse();
    assertThat(WorkloadKind.WRITE.pageCacheWrites(direct)).isFalse();
    assertThat(
            WorkloadKind.READ.pageCacheWrites(
                WorkloadKind.READ.spec(ReadWorkload.getDefaultInstance())))
        .isFalse();
    WorkloadSpec ring =
        WorkloadKind.PING_PONG.spec(PingPongWorkload.newBuilder().setWarmupMillis(200).build());
    assertThat(WorkloadKind.PING_PONG.warmsUp()).isTrue();
    assertThat(WorkloadKind.PING_PONG.warmUpMillis(ring)).isEqualTo(200);
    assertThat(WorkloadKind.ALL.stream().filter(WorkloadKind::warmsUp))
        .containsExactly(WorkloadKind.PING_PONG);
    assertThat(WorkloadKind.WRITE.warmUpMillis(buffered)).isZero();
  }

  @Test
  void aSpecInTheScenariosWordsNamesEveryFieldByItsYamlNameWithSizesDurationsAndWords() {
    WorkloadSpec ring =
        WorkloadKind.PING_PONG.spec(
            PingPongWorkload.newBuilder()
                .setIo(PingPongIo.PING_PONG_IO_NONE)
                .setFile("p.dat")
                .setSlots(4)
                .setProcesses(2)
                .setLock(LockKind.LOCK_KIND_OFD)
                .setTryLock(true)
                .setDurationMillis(90_000)
                .setWarmupMillis(200)
                .build());
    assertThat(WorkloadKind.PING_PONG.settings(ring))
        .containsExactly(
            entry("io", "none"),
            entry("file", "p.dat"),
            entry("slots", 4L),
            entry("processes", 2L),
            entry("lock", "ofd"),
            entry("lock-wait", "try"),
            entry("duration", "90s"),
            entry("warmup", "200ms"));
    WorkloadSpec write =
        WorkloadKind.WRITE
            .spec(
                WriteWorkload.newBuilder()
                    .setSizeBytes(3L << 30)
                    .setBlockSizeBytes(1000)
                    .setODirect(true)
                    .build())
            .toBuilder()
            .setInstrumentationOff(true)
            .build();
    assertThat(WorkloadKind.WRITE.settings(write))
        .containsEntry("size", "3GiB")
        .containsEntry("block-size", "1000")
        .containsEntry("o-direct", true)
        .containsEntry("instrumentation", false);
    assertThat(WorkloadField.durationText(1500)).isEqualTo("1500us");
    assertThat(WorkloadField.durationText(3_600_000_000L)).isEqualTo("1h");
    assertThat(WorkloadField.durationText(0)).isEqualTo("0s");
    assertThat(WorkloadField.sizeText(0)).isEqualTo("0");
    assertThat(WorkloadField.sizeText(64 << 10)).isEqualTo("64KiB");
  }
}

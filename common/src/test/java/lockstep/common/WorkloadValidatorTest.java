package lockstep.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import org.junit.jupiter.api.Test;

/**
 * The one place workload rules live; the agent (WorkloadFactory) and the scenario parser both call
 * it.
 */
class WorkloadValidatorTest {
  private static WriteWorkload.Builder write() {
    return WriteWorkload.newBuilder().setFile("w").setSizeBytes(1 << 20).setBlockSizeBytes(4096);
  }

  private static void refused(WorkloadSpec spec, String field, String problem) {
    assertThatThrownBy(() -> WorkloadValidator.validate(spec))
        .isInstanceOfSatisfying(
            InvalidWorkloadException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.problem()).contains(problem);
            })
        .hasMessage(
            "workload." + field + ": " + ((InvalidWorkloadException) catchIt(spec)).problem());
  }

  private static Throwable catchIt(WorkloadSpec spec) {
    try {
      WorkloadValidator.validate(spec);
      return null;
    } catch (InvalidWorkloadException e) {
      return e;
    }
  }

  @Test
  void writeAndReadSizes() {
    refused(
        WorkloadSpec.newBuilder().setWrite(write().setSizeBytes(0)).build(),
        "size",
        "must be greater than 0");
    refused(
        WorkloadSpec.newBuilder().setWrite(write().setSizeBytes(5L << 40)).build(),
        "size",
        "above the limit of 4 TiB");
    refused(
        WorkloadSpec.newBuilder().setWrite(write().setBlockSizeBytes(128 << 20)).build(),
        "block-size",
        "outside 512 B .. 64 MiB");
    refused(
        WorkloadSpec.newBuilder().setWrite(write().setBlockSizeBytes(-1)).build(),
        "block-size",
        "4294967295 bytes");
    refused(
        WorkloadSpec.newBuilder()
            .setWrite(write().setODirect(true).setBlockSizeBytes(1000))
            .build(),
        "o-direct",
        "multiple of 4 KiB");
    refused(
        WorkloadSpec.newBuilder().setWrite(write().setSizeBytes(8192).setThreads(3)).build(),
        "threads",
        "3 threads for 2 block(s)");
    refused(
        WorkloadSpec.newBuilder()
            .setRead(
                ReadWorkload.newBuilder().setFile("r").setSizeBytes(4096).setBlockSizeBytes(100))
            .build(),
        "block-size",
        "100 bytes");
    WorkloadValidator.validate(WorkloadSpec.newBuilder().setWrite(write()).build());
  }

  @Test
  void lockWorkloads() {
    LockFilesWorkload.Builder lf =
        LockFilesWorkload.newBuilder()
            .setDir("d")
            .setProcesses(2)
            .setFiles(10)
            .setLock(LockKind.LOCK_KIND_FCNTL);
    refused(
        WorkloadSpec.newBuilder().setLockFiles(lf.clone().setProcesses(0)).build(),
        "processes",
        "0 is outside 1 .. 1024");
    refused(
        WorkloadSpec.newBuilder().setLockFiles(lf.clone().setFiles(2_000_000)).build(),
        "files",
        "outside 1 .. 1000000");
    refused(
        WorkloadSpec.newBuilder()
            .setLockFiles(lf.clone().setLock(LockKind.LOCK_KIND_UNSPECIFIED))
            .build(),
        "lock",
        "fcntl, flock, ofd");
    HotLockWorkload.Builder hl =
        HotLockWorkload.newBuilder()
            .setFile("h")
            .setProcesses(2)
            .setThreads(2)
            .setLock(LockKind.LOCK_KIND_OFD)
            .setDurationMillis(1000);
    refused(
        WorkloadSpec.newBuilder().setHotLock(hl.clone().setLock(LockKind.LOCK_KIND_FCNTL)).build(),
        "threads",
        "belong to the process");
    refused(
        WorkloadSpec.newBuilder()
            .setHotLock(hl.clone().setHoldMicros(18_446_744_073_709_552L))
            .build(),
        "hold",
        "above 10 s");
    refused(
        WorkloadSpec.newBuilder().setHotLock(hl.clone().setFile("h.{node}")).build(),
        "file",
        "{node}");
    // one minimum duration on both sides (the parser had 100 ms, the agent 1 ms)
    refused(
        WorkloadSpec.newBuilder().setHotLock(hl.clone().setDurationMillis(99)).build(),
        "duration",
        "outside 100 ms .. 24 h");
    PingPongWorkload.Builder pp =
        PingPongWorkload.newBuilder()
            .setFile("p")
            .setProcesses(1)
            .setLock(LockKind.LOCK_KIND_FCNTL)
            .setDurationMillis(1000);
    refused(
        WorkloadSpec.newBuilder().setPingPong(pp.clone().setLock(LockKind.LOCK_KIND_FLOCK)).build(),
        "lock",
        "byte ranges");
    refused(
        WorkloadSpec.newBuilder().setPingPong(pp.clone().setWarmupMillis(3_600_000)).build(),
        "warmup",
        "above 10 m");
    WorkloadValidator.validate(WorkloadSpec.newBuilder().setPingPong(pp).build());
  }

  @Test
  void theRingNeedsOneSlotMoreThanItsParticipants() {
    PingPongWorkload pp = PingPongWorkload.newBuilder().setProcesses(2).setSlots(5).build();
    assertThat(WorkloadValidator.ringSlots(pp, 2)).isEqualTo(5);
    assertThat(WorkloadValidator.ringSlots(pp.toBuilder().setSlots(0).build(), 3)).isEqualTo(7);
    assertThatThrownBy(() -> WorkloadValidator.ringSlots(pp, 3))
        .hasMessage(
            "workload.slots: 5 slots for 6 participants (3 node(s) x 2 process(es)); the ring needs"
                + " at least 7 or it deadlocks");
  }

  @Test
  void metadataOps() {
    MetadataWorkload.Builder m =
        MetadataWorkload.newBuilder()
            .setDir("m")
            .setFiles(10)
            .addOps(MetadataOp.METADATA_OP_CREATE);
    refused(WorkloadSpec.newBuilder().setMetadata(m.clone().clearOps()).build(), "ops", "is empty");
    refused(
        WorkloadSpec.newBuilder()
            .setMetadata(m.clone().addOps(MetadataOp.METADATA_OP_CREATE))
            .build(),
        "ops",
        "'create' is listed twice");
    refused(
        WorkloadSpec.newBuilder().setMetadata(m.clone().setDepth(65)).build(),
        "depth",
        "65 is outside 0 .. 64");
    refused(WorkloadSpec.getDefaultInstance(), "type", "no workload given");
  }
}

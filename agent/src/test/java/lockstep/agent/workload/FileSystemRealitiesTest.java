package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.prepareAndRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What real file systems refuse, each reported as one clear error with errno and path. */
class FileSystemRealitiesTest {
  @TempDir Path tmp;

  @Test
  void oDirectRefusedOrMisalignedIsEinvalWithAnExplanation() {
    // Either the file system refuses O_DIRECT at open (older tmpfs, some FUSE) or, as ext4
    // and xfs do, it refuses a transfer at an offset that is not block-aligned.
    Posix posix = Posix.get();
    String path = tmp.resolve("direct").toString();
    PosixException refused;
    int fd = -1;
    try {
      fd = posix.open(path, Posix.O_RDWR | Posix.O_CREAT | Posix.O_DIRECT, 0644);
      var buf = posix.allocateAligned(4096, 4096);
      int opened = fd;
      refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              PosixException.class, () -> posix.pwriteFully(opened, buf, 4096, 1, path));
    } catch (PosixException e) {
      refused = e;
    } finally {
      posix.closeQuietly(fd);
    }
    assertThat(refused.errnoName()).isEqualTo("EINVAL");
    PosixException explained = BlockIo.explainDirect(refused, true, 4096, 4096);
    assertThat(explained.getMessage()).contains("O_DIRECT refused or misaligned").contains(path);
    assertThat(BlockIo.explainDirect(refused, false, 4096, 4096)).isSameAs(refused);
  }

  @Test
  void aFullFileSystemFailsTheRunWithEnospc() throws Exception {
    Required.root("mounting a tiny tmpfs");
    Path mnt = Files.createDirectory(tmp.resolve("tiny"));
    Process mount =
        new ProcessBuilder(
                "mount", "-t", "tmpfs", "-o", "size=256k", "lockstep-enospc", mnt.toString())
            .redirectErrorStream(true)
            .start();
    Required.that(
        mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0,
        "a tiny tmpfs (mount said: "
            + new String(mount.getInputStream().readAllBytes()).strip()
            + ")");
    try {
      WriteFileWorkload w =
          new WriteFileWorkload(
              WriteWorkload.newBuilder()
                  .setFile("big.{node}")
                  .setSizeBytes(4 << 20)
                  .setBlockSizeBytes(64 << 10)
                  .build(),
              new RootedPaths(mnt, "n1"));
      WorkloadResult r = prepareAndRun(w, 0);
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_FAILED);
      assertThat(r.getError().getErrnoName()).isEqualTo("ENOSPC");
      assertThat(r.getError().getOperation()).isEqualTo("pwrite");
      assertThat(r.getError().getPath()).isEqualTo("big.n1");
      assertThat(r.getBytes()).isLessThan(4 << 20).isPositive();
      assertThat(w.cleanup().filesRemoved()).isEqualTo(1);
    } finally {
      new ProcessBuilder("umount", mnt.toString())
          .inheritIO()
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void moreFilesThanTheHardOpenFileLimitFailBeforeTheStartNamingBothNumbers() {
    long[] limits = Posix.get().openFileLimits();
    Required.that(
        limits[1] > 0 && limits[1] < 900_000,
        "a finite hard RLIMIT_NOFILE below 900,000 (here " + limits[1] + ")");
    int files = (int) limits[1] + 100;
    LockFilesProcesses w =
        new LockFilesProcesses(
            LockFilesWorkload.newBuilder()
                .setDir("l.{node}")
                .setProcesses(1)
                .setFiles(files)
                .setLock(LockKind.LOCK_KIND_FCNTL)
                .build(),
            new RootedPaths(tmp, "n1"));
    assertThatThrownBy(w::prepare)
        .isInstanceOf(PosixException.class)
        .hasMessageContaining("EMFILE")
        .hasMessageContaining("needs " + (files + 64) + " open files")
        .hasMessageContaining("hard limit is " + limits[1]);
    assertThat(w.workerPids()).isEmpty();
    w.cleanup();
    assertThat(tmp.resolve("l.n1")).doesNotExist();
  }

  @Test
  void theSoftLimitIsRaisedToWhatTheWorkloadNeeds() {
    long[] before = Posix.get().openFileLimits();
    Required.that(
        before[1] > 1100,
        "a hard RLIMIT_NOFILE above 1,100 to test raising (here " + before[1] + ")");
    assertThat(Posix.get().raiseOpenFileLimit(Math.min(before[1], Math.max(before[0], 1100))))
        .isTrue();
    assertThat(Posix.get().openFileLimits()[0]).isGreaterThanOrEqualTo(Math.min(before[1], 1100));
    assertThat(Posix.get().raiseOpenFileLimit(before[1] + 1)).isFalse();
  }

  @Test
  void staleHandlesLockRefusalsAndPermissionErrorsAreNamed() {
    assertThat(Posix.error("stat", "x", 116).getMessage())
        .isEqualTo("stat x: ESTALE (Stale file handle)");
    assertThat(Posix.error("fcntl(F_SETLKW, F_WRLCK)", "x", 37).getMessage())
        .startsWith("fcntl(F_SETLKW, F_WRLCK) x: ENOLCK");
    assertThat(Posix.error("open", "x", 13).errnoName()).isEqualTo("EACCES");
    assertThat(Posix.error("open", "x", 99999).errnoName()).isEqualTo("errno 99999");
  }
}

package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.assertFailedOn;
import static lockstep.agent.workload.WorkloadResults.prepareAndRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import lockstep.agent.fs.LockCall;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.OpenFileLimit;
import lockstep.agent.fs.Posix;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Starts real worker processes; the locks they hold must really block this JVM. */
class LockFilesProcessesTest extends TempRootTest {
  private static LockFilesWorkload spec(LockKind kind) {
    return LockFilesWorkload.newBuilder()
        .setDir("locks.{node}")
        .setProcesses(2)
        .setFiles(25)
        .setLock(kind)
        .build();
  }

  /** Whether this JVM gets an exclusive {@code call} lock on {@code f} at once (then drops it). */
  private static boolean lockableHere(Path f, LockCall call) {
    Posix posix = Posix.get();
    int fd = posix.open(f.toString(), Posix.O_RDWR, 0);
    try {
      return Locks.get()
              .acquire(fd, new LockMode(call, true, false), 0, 0, f.toString(), () -> true)
          >= 0;
    } finally {
      posix.closeQuietly(fd);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = LockKind.class,
      names = {"LOCK_KIND_FCNTL", "LOCK_KIND_FLOCK", "LOCK_KIND_OFD"})
  void workersHoldRealLocksUntilCleanup(LockKind kind) throws Exception {
    LockFilesProcesses w = new LockFilesProcesses(spec(kind), paths());
    try {
      w.prepare();
      assertThat(w.workerPids())
          .hasSize(2)
          .doesNotHaveDuplicates()
          .doesNotContain(ProcessHandle.current().pid());
      // the workers warmed up on scratch files of their own on tmpfs before reporting ready:
      // none in the measured directory, none left on tmpfs
      try (var files = Files.list(root.resolve("locks.n1"))) {
        assertThat(files.toList()).isEmpty();
      }
      try (var scratch = Files.list(Path.of("/dev/shm"))) {
        assertThat(scratch.map(f -> f.getFileName().toString()))
            .noneMatch(n -> n.startsWith("lockstep-warmup-" + "test-"));
      }
      WorkloadResult r = w.run(WallClock.nowNanos() + 50_000_000).build();

      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getOps()).isEqualTo(50);
      assertThat(r.getProcessesList())
          .hasSize(2)
          .allSatisfy(p -> assertThat(p.getOps()).isEqualTo(25));
      assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount()).isEqualTo(50);

      Path held = root.resolve("locks.n1/test-1-24");
      assertThat(held).exists();
      assertThat(lockableHere(held, LockCall.of(kind)))
          .as("another process holds the %s lock", kind)
          .isFalse();
    } finally {
      CleanupReport c = w.cleanup();
      assertThat(c.filesRemoved()).isEqualTo(50);
    }
    assertThat(root.resolve("locks.n1")).doesNotExist();
  }

  /**
   * Before the instant each worker's descriptor table already holds all its files (growing it in
   * the run waited for an RCU grace period, twice in a 1000-file step); once its files are done,
   * every thread of the worker is at nice 19, so its bookkeeping leaves the CPU to the others.
   */
  @Test
  void workersGrowTheirDescriptorTableBeforeTheInstantAndYieldTheCpuWhenDone() throws Exception {
    // more files than a worker JVM's table holds after start-up (its jars: 128 or 256)
    int files = 400;
    LockFilesProcesses w =
        new LockFilesProcesses(
            spec(LockKind.LOCK_KIND_FCNTL).toBuilder().setFiles(files).build(), paths());
    try {
      w.prepare();
      long needed = OpenFileLimit.needed(files);
      for (long pid : w.workerPids()) {
        assertThat(descriptorTableSize(pid))
            .as("FDSize of worker %d", pid)
            .isGreaterThanOrEqualTo(needed);
      }
      WorkloadResult r = w.run(WallClock.nowNanos() + 50_000_000).build();
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      for (long pid : w.workerPids()) {
        assertThat(threadNiceValues(pid))
            .as("nice of worker %d's threads", pid)
            .isNotEmpty()
            .containsOnly(19);
      }
    } finally {
      w.cleanup();
    }
  }

  private static long descriptorTableSize(long pid) throws Exception {
    return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
        .filter(l -> l.startsWith("FDSize:"))
        .mapToLong(l -> Long.parseLong(l.substring("FDSize:".length()).trim()))
        .findFirst()
        .orElseThrow();
  }

  /** Field 19 of each thread's stat, counted after the ")" that ends the command name. */
  private static List<Integer> threadNiceValues(long pid) throws Exception {
    try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      return tasks
          .map(
              t -> {
                try {
                  String stat = Files.readString(t.resolve("stat"));
                  String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                  return Integer.parseInt(f[16]);
                } catch (IOException e) {
                  return null; // the thread ended meanwhile
                }
              })
          .filter(Objects::nonNull)
          .toList();
    }
  }

  @Test
  void aFileThatCannotBeOpenedFailsThatWorkerWithErrnoAndPath() throws Exception {
    LockFilesProcesses w = new LockFilesProcesses(spec(LockKind.LOCK_KIND_FCNTL), paths());
    try {
      w.prepare();
      // made after prepare's check: the worker's O_EXCL open meets it
      Files.createDirectories(root.resolve("locks.n1/test-0-7"));
      WorkloadResult r = w.run(WallClock.nowNanos()).build();
      assertFailedOn(r, "EEXIST", "locks.n1/test-0-7");
      assertThat(r.getOps()).isEqualTo(7 + 25);
    } finally {
      w.cleanup();
    }
    assertThat(root.resolve("locks.n1/test-0-7")).isDirectory();
    assertThat(root.resolve("locks.n1/test-0-0")).doesNotExist();
  }

  @ParameterizedTest
  @EnumSource(
      value = lockstep.agent.v1.FileClose.class,
      names = {"FILE_CLOSE_END", "FILE_CLOSE_EACH"})
  void unlockEachLeavesNothingLockedWhateverTheClose(lockstep.agent.v1.FileClose close)
      throws Exception {
    LockFilesProcesses w =
        new LockFilesProcesses(
            spec(LockKind.LOCK_KIND_FCNTL).toBuilder()
                .setRelease(lockstep.agent.v1.LockRelease.LOCK_RELEASE_UNLOCK_EACH)
                .setClose(close)
                .setTryLock(true)
                .build(),
            paths());
    try {
      WorkloadResult r = prepareAndRun(w, 50_000_000);
      assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
      assertThat(r.getOps()).isEqualTo(50);
      assertThat(r.getLockRetries()).isZero();
      Path f = root.resolve("locks.n1/test-1-24");
      assertThat(lockableHere(f, LockCall.FCNTL)).as("nobody holds it").isTrue();
    } finally {
      w.cleanup();
    }
  }

  @Test
  void holdWithCloseEachDropsTheFlockOnClose() throws Exception {
    LockFilesProcesses w =
        new LockFilesProcesses(
            spec(LockKind.LOCK_KIND_FLOCK).toBuilder()
                .setClose(lockstep.agent.v1.FileClose.FILE_CLOSE_EACH)
                .setShared(true)
                .build(),
            paths());
    try {
      WorkloadResult r = prepareAndRun(w, 0);
      assertThat(r.getOps()).isEqualTo(50);
      Path f = root.resolve("locks.n1/test-0-3");
      assertThat(lockableHere(f, LockCall.FLOCK)).isTrue();
    } finally {
      w.cleanup();
    }
  }

  @Test
  void lockModeKindsMap() {
    assertThat(LockCall.of(LockKind.LOCK_KIND_OFD)).isEqualTo(LockCall.OFD);
  }
}

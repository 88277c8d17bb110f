package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lockstep.testsupport.Required;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real calls: a failing lock names the exact fcntl command, and block I/O round-trips. */
class PosixTest {
  private final Posix posix = Posix.get();
  private final Locks locks = Locks.get();

  @TempDir Path dir;

  private int closedFd() {
    String f = dir.resolve("closed").toString();
    int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
    posix.close(fd, f);
    return fd;
  }

  /** One new file opened twice: two open file descriptions, closed last first. */
  private record OpenedTwice(String path, int first, int second) implements AutoCloseable {
    @Override
    public void close() {
      Posix.get().close(second, path);
      Posix.get().close(first, path);
    }
  }

  private OpenedTwice openedTwice(String name) {
    String f = dir.resolve(name).toString();
    int first = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
    return new OpenedTwice(f, first, posix.open(f, Posix.O_RDWR, 0));
  }

  /** {@code call} fails naming {@code operation} and {@code errnoName}. */
  private static void failsWith(ThrowingCallable call, String operation, String errnoName) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            PosixException.class,
            e -> {
              assertThat(e.operation()).isEqualTo(operation);
              assertThat(e.errnoName()).isEqualTo(errnoName);
            });
  }

  @Test
  void aFailedLockNamesTheCommandAndErrno() {
    int fd = closedFd();
    LockMode fcntl = new LockMode(LockCall.FCNTL, true, true);
    LockMode flock = new LockMode(LockCall.FLOCK, true, true);
    failsWith(
        () -> locks.acquire(fd, fcntl, 0, 0, "f", () -> true), "fcntl(F_SETLKW, F_WRLCK)", "EBADF");
    failsWith(
        () -> locks.lockRange(fd, new LockMode(LockCall.OFD, false, false), 3, 1, "f"),
        "fcntl(F_OFD_SETLK, F_RDLCK)",
        "EBADF");
    // an unlock's and a blocking lock's first call saves no errno: the error is the one its second
    // call saw
    failsWith(() -> locks.release(fd, fcntl, 0, 1, "f"), "fcntl(F_SETLK, F_UNLCK)", "EBADF");
    failsWith(() -> locks.release(fd, flock, 0, 0, "f"), "flock(LOCK_UN)", "EBADF");
    failsWith(() -> locks.acquire(fd, flock, 0, 0, "f", () -> false), "flock(LOCK_EX)", "EBADF");
  }

  @Test
  void aTryLockStoppedWhileTheLockIsHeldReportsItsAttempts() {
    // two open file descriptions of one file: flock and OFD locks conflict between them in one
    // process
    try (OpenedTwice d = openedTwice("held")) {
      String f = d.path();
      int holder = d.first();
      int waiter = d.second();
      for (LockCall call : new LockCall[] {LockCall.FLOCK, LockCall.OFD}) {
        LockMode exclusive = new LockMode(call, true, true);
        LockMode tryExclusive = new LockMode(call, true, false);
        locks.acquire(holder, exclusive, 0, 0, f, () -> false);
        int[] asked = {0};
        long r = locks.acquire(waiter, tryExclusive, 0, 0, f, () -> ++asked[0] >= 5);
        assertThat(r).as(call.name()).isNegative();
        assertThat(Locks.retriesOfStopped(r)).as(call.name()).isEqualTo(4);
        locks.release(holder, exclusive, 0, 0, f);
        assertThat(locks.acquire(waiter, tryExclusive, 0, 0, f, () -> true))
            .as(call.name())
            .isZero();
        locks.release(waiter, tryExclusive, 0, 0, f);
      }
    }
  }

  @Test
  void aThreadStillRealTimeFromItsWakeStepsDownBeforeItSpinsForAHeldLock() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    try (OpenedTwice d = openedTwice("spun")) {
      String f = d.path();
      LockMode exclusive = new LockMode(LockCall.OFD, true, true);
      LockMode tryExclusive = new LockMode(LockCall.OFD, true, false);
      locks.acquire(d.first(), exclusive, 0, 0, f, () -> false);
      int[] policies =
          CompletableFuture.supplyAsync(
                  () -> {
                    RealtimeWake.get().sleepUntilStayingRaised(0);
                    int afterWake = policy();
                    int[] whileSpinning = {-1};
                    locks.acquire(
                        d.second(),
                        tryExclusive,
                        0,
                        0,
                        f,
                        () -> {
                          whileSpinning[0] = policy();
                          return true;
                        });
                    return new int[] {afterWake, whileSpinning[0]};
                  })
              .get(5, TimeUnit.SECONDS);
      locks.release(d.first(), exclusive, 0, 0, f);
      assertThat(policies).containsExactly(RealtimeWake.SCHED_FIFO, RealtimeWake.SCHED_OTHER);
    }
  }

  /** The calling thread's policy, without the reset-on-fork flag. */
  private int policy() {
    return posix.libc().sched_getscheduler(0) & ~RealtimeWake.SCHED_RESET_ON_FORK;
  }

  @Test
  void theLockStructIsRewrittenWhereACallDiffers() {
    // the same thread's struct flock serves ranges of different offsets, lengths and types:
    // a range held by one description blocks exactly that range for the other
    LockMode write = new LockMode(LockCall.OFD, true, false);
    LockMode read = new LockMode(LockCall.OFD, false, false);
    try (OpenedTwice d = openedTwice("ranges")) {
      String f = d.path();
      int a = d.first();
      int b = d.second();
      assertThat(locks.lockRange(a, write, 10, 1, f)).isTrue();
      assertThat(locks.lockRange(b, write, 10, 1, f)).isFalse();
      assertThat(locks.lockRange(b, write, 11, 1, f)).isTrue();
      assertThat(locks.lockRange(b, read, 0, 5, f)).isTrue();
      assertThat(locks.lockRange(a, write, 0, 5, f)).isFalse();
      assertThat(locks.lockRange(a, read, 0, 5, f)).isTrue();
      locks.unlockRange(a, write, 10, 1, f);
      assertThat(locks.lockRange(b, write, 10, 1, f)).isTrue();
    }
  }

  @Test
  void blocksWrittenAtAnOffsetReadBack() {
    String f = dir.resolve("blocks").toString();
    int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
    try {
      AlignedBuffer out = posix.allocateAligned(4096, 4096);
      out.fill((byte) 7);
      assertThat(posix.pwriteFully(fd, out, 4096, 8192, f)).isEqualTo(4096);
      AlignedBuffer in = posix.allocateAligned(4096, 4096);
      assertThat(posix.preadFully(fd, in, 4096, 8192, f)).isEqualTo(4096);
      assertThat(in.getByte(0)).isEqualTo((byte) 7);
      assertThat(in.getByte(4095)).isEqualTo((byte) 7);
      assertThatThrownBy(() -> posix.preadFully(fd, in, 4096, 12288, f))
          .hasMessageContaining("end of file at offset 12288");
      // a short read (the file ends 2 KiB into the block) is completed, then found at its end
      posix.ftruncate(fd, 8192 + 2048, f);
      assertThatThrownBy(() -> posix.preadFully(fd, in, 4096, 8192, f))
          .hasMessageContaining("end of file at offset 10240");
    } finally {
      posix.closeQuietly(fd);
    }
  }

  @Test
  void aFailedBlockCallNamesItsErrno() {
    int fd = closedFd();
    AlignedBuffer buf = posix.allocateAligned(4096, 4096);
    // the first call saves no errno: the error is the one the saving call saw
    failsWith(() -> posix.pwriteFully(fd, buf, 4096, 0, "w"), "pwrite", "EBADF");
    failsWith(() -> posix.preadFully(fd, buf, 4096, 0, "r"), "pread", "EBADF");
    assertThatThrownBy(() -> posix.pwriteFully(fd, buf, 4096, 0, "w"))
        .isInstanceOfSatisfying(PosixException.class, e -> assertThat(e.path()).isEqualTo("w"));
  }

  @Test
  void fstatReadsWhatTheKernelSaysOfTheFile() throws Exception {
    Path p = dir.resolve("stat");
    String f = p.toString();
    int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
    try {
      posix.ftruncate(fd, 12345, f);
      java.nio.file.Files.createLink(dir.resolve("stat-link"), p);
      FileId id = posix.fstat(fd, f);
      assertThat(id.ino())
          .isEqualTo(((Number) java.nio.file.Files.getAttribute(p, "unix:ino")).longValue());
      assertThat(id.dev())
          .isEqualTo(((Number) java.nio.file.Files.getAttribute(p, "unix:dev")).longValue());
      assertThat(id.links()).isEqualTo(2);
      assertThat(id.size()).isEqualTo(12345);
      assertThat(id.regular()).isTrue();
      assertThat(id.directory()).isFalse();
      int d = posix.open(dir.toString(), Posix.O_RDONLY | Posix.O_DIRECTORY, 0);
      try {
        FileId di = posix.fstat(d, dir.toString());
        assertThat(di.directory()).isTrue();
        assertThat(di.regular()).isFalse();
        assertThat(di.sameFile(id)).isFalse();
        assertThat(posix.fstat(fd, f).sameFile(id)).isTrue();
      } finally {
        posix.close(d, dir.toString());
      }
    } finally {
      posix.closeQuietly(fd);
    }
    failsWith(() -> posix.fstat(closedFd(), "gone"), "fstat", "EBADF");
    failsWith(
        () -> posix.open(dir.resolve("missing/x").toString(), Posix.O_RDONLY, 0), "open", "ENOENT");
    failsWith(() -> posix.close(closedFd(), "c"), "close", "EBADF");
    failsWith(() -> posix.fsync(closedFd(), "s"), "fsync", "EBADF");
    failsWith(() -> posix.fdatasync(closedFd(), "s"), "fdatasync", "EBADF");
  }

  @Test
  void theOpenFileLimitIsTheProcesssAndTheTableGrowsWithoutTouchingOpenFiles() throws Exception {
    long[] limits = posix.openFileLimits();
    String self =
        java.nio.file.Files.readAllLines(Path.of("/proc/self/limits")).stream()
            .filter(l -> l.startsWith("Max open files"))
            .findFirst()
            .orElseThrow();
    String[] words = self.substring("Max open files".length()).trim().split("\\s+");
    assertThat(limits[0]).isEqualTo(words[0].equals("unlimited") ? -1 : Long.parseLong(words[0]));
    assertThat(limits[1]).isEqualTo(words[1].equals("unlimited") ? -1 : Long.parseLong(words[1]));
    assertThat(posix.raiseOpenFileLimit(limits[0])).isTrue();
    assertThat(posix.getpid()).isEqualTo((int) ProcessHandle.current().pid());
    String f = dir.resolve("kept").toString();
    int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
    try {
      posix.growDescriptorTable(Math.min(limits[0], 1024));
      assertThat(posix.fstat(fd, f).regular()).isTrue();
    } finally {
      posix.close(fd, f);
    }
  }
}

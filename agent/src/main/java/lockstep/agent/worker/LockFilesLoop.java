package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.ScratchDir;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.FileClose;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockRelease;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import lockstep.worker.v1.WorkerOutcome;
import org.HdrHistogram.Histogram;

/**
 * Seed 1's program, in one process: create {@code files} files, open each with
 * O_SYNC|O_RDWR|O_CREAT (plus O_EXCL|O_NOFOLLOW, relative to the directory opened beneath the root
 * at set-up) and lock it. With release hold and close end (the seed) every lock stays held and
 * every file open until {@link #release}; unlock-each unlocks right after the lock, close each
 * closes right after (which drops a lock still held). One op is one file: open + lock [+ unlock] [+
 * close], timed as one.
 */
public final class LockFilesLoop implements WorkerLoop {
  public static final int WARM_UP_FILES = 400;
  public static final String WARM_UP_PREFIX = ".warmup-";
  // O_EXCL | O_NOFOLLOW relative to the directory descriptor: only files this run creates,
  // never a link planted at a file's name, in the same one open(2) per file as the seed.
  private static final int FLAGS =
      Posix.O_SYNC
          | Posix.O_RDWR
          | Posix.O_CREAT
          | Posix.O_EXCL
          | Posix.O_NOFOLLOW
          | Posix.O_CLOEXEC;
  private final Path dir;
  private final Dir dirFd;
  private final String prefix;
  private final LockFilesWorkload spec;
  private final Path root;
  private final Posix posix = Posix.get();
  private final Locks locks = Locks.get();
  private final List<Integer> fds = new ArrayList<>();
  private volatile long ops;
  private volatile boolean stopped;
  private final boolean instrumented;
  // One instance for the whole run: the lock loop asks it on every try-lock attempt.
  private final BooleanSupplier isStopped = () -> stopped;

  /**
   * Opens {@code dir} beneath {@code root} without following links; throws PosixException if it
   * cannot. {@code instrumented}: time each file into the latency histogram.
   */
  public LockFilesLoop(
      Path dir, String prefix, LockFilesWorkload spec, Path root, boolean instrumented) {
    this.dir = dir;
    this.instrumented = instrumented;
    try (RootDir rootDir = RootDir.open(root)) {
      this.dirFd = rootDir.dir(root.relativize(dir));
    }
    this.prefix = prefix;
    this.spec = spec;
    this.root = root;
  }

  /**
   * A scratch file of the warm-up. They stay until cleanup: unlinking thousands of just-created
   * files seconds before the run put ext4 on its slow path for the measured creates (a C program
   * preceded by the same create/unlink pattern fell from ~14k to ~4.7k locks/s).
   */
  public static String warmUpName(String prefix, int index) {
    return WARM_UP_PREFIX + fileName(prefix, index);
  }

  public static String fileName(String prefix, int index) {
    return prefix + index;
  }

  @Override
  public long ops() {
    return ops;
  }

  @Override
  public void stop() {
    stopped = true;
  }

  /**
   * Runs the measured path on {@link #WARM_UP_FILES} scratch files, none counted, each unlocked and
   * closed, so the native-call stubs are linked and the per-file code compiled before the instant:
   * the measured time holds the file system's work, not the worker JVM's warm-up. The files go to a
   * directory of the worker's own on tmpfs ({@link ScratchDir}) and are gone before the instant:
   * the JIT compiles the same code whatever the file system, and on a slow one (GFS2 creates ~40
   * files/s under emulation) 400 scratch files per worker cost the step seconds of prepare. Without
   * a tmpfs they go to the measured directory as {@code .warmup-PREFIXi} and stay until cleanup
   * (see {@link #warmUpName}).
   */
  @Override
  public void warmUp() {
    LockMode mode = mode();
    ScratchDir scratch = ScratchDir.onTmpfs("lockstep-warmup-" + prefix);
    if (scratch == null) {
      warmUpIn(dirFd.fd(), dir + "/", WARM_UP_PREFIX + prefix, mode);
      return;
    }
    try (scratch) {
      warmUpIn(scratch.dir().fd(), scratch.path() + "/", prefix, mode);
    }
  }

  private void warmUpIn(int dirfd, String dirPrefix, String namePrefix, LockMode mode) {
    Histogram scratch = LatencyHistograms.create();
    List<Integer> none = new ArrayList<>();
    for (int i = 0; i < WARM_UP_FILES && !stopped; i++) {
      String name = fileName(namePrefix, i);
      String path = dirPrefix + name;
      long t0 = System.nanoTime();
      int fd = posix.openat(dirfd, name, FLAGS, 0644, path);
      try {
        lockOne(fd, path, mode, true, false, none);
      } finally {
        posix.closeQuietly(fd);
      }
      scratch.recordValue(System.nanoTime() - t0);
    }
    WallClock.nowNanos();
  }

  @Override
  public WorkerOutcome run(long startAtUnixNanos) {
    WorkerOutcome.Builder out = WorkerOutcome.newBuilder();
    Histogram latency = LatencyHistograms.create();
    LockMode mode = mode();
    boolean unlockEach = spec.getRelease() == LockRelease.LOCK_RELEASE_UNLOCK_EACH;
    boolean closeEach = spec.getClose() == FileClose.FILE_CLOSE_EACH;
    long retries = 0;
    int dirfd = dirFd.fd();
    String dirPrefix = dir + "/";
    if (!WallClockWait.until(startAtUnixNanos, isStopped)) {
      return out.build();
    }
    long started = WallClock.nowNanos();
    out.setStartedUnixNanos(started).setFirstOpUnixNanos(started);
    for (int i = 0; i < spec.getFiles() && !stopped; i++) {
      String name = fileName(prefix, i);
      String path = dirPrefix + name;
      try {
        long t0 = instrumented ? System.nanoTime() : 0;
        int fd = posix.openat(dirfd, name, FLAGS, 0644, path);
        long r = lockOne(fd, path, mode, unlockEach, closeEach, fds);
        if (r < 0) {
          retries += Locks.retriesOfStopped(r);
          break;
        }
        retries += r;
        if (instrumented) {
          latency.recordValue(System.nanoTime() - t0);
        }
        ops = ops + 1;
      } catch (PosixException e) {
        out.setError(WorkloadErrors.of(e, root, "failed after " + ops + " files"));
        break;
      }
    }
    return out.setEndUnixNanos(WallClock.nowNanos())
        .setOps(ops)
        .setLockRetries(retries)
        .setLatencyHistogram(LatencyHistograms.encode(latency))
        .build();
  }

  private LockMode mode() {
    return LockMode.of(spec.getLock(), spec.getShared(), spec.getTryLock());
  }

  /**
   * One file after its open: lock [+ unlock] [+ close], or keep the descriptor in {@code keep};
   * returns the try-lock retries, or what {@link Locks#acquire} returns when stopped while waiting.
   */
  private long lockOne(
      int fd,
      String path,
      LockMode mode,
      boolean unlockEach,
      boolean closeEach,
      List<Integer> keep) {
    if (!closeEach) {
      keep.add(fd);
    }
    try {
      long r = locks.acquire(fd, mode, 0, 0, path, isStopped);
      if (r >= 0 && unlockEach) {
        locks.release(fd, mode, 0, 0, path);
      }
      return r;
    } finally {
      if (closeEach) {
        posix.close(fd, path);
      }
    }
  }
}

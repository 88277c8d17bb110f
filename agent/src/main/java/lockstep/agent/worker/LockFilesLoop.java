package lockstep.agent.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.NumberedName;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.ScratchDir;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.FileClose;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockRelease;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.HdrHistogram.Histogram;

/**
 * Seed 1's program, in one process: create {@code files} files, open each with
 * O_SYNC|O_RDWR|O_CREAT (plus O_EXCL|O_NOFOLLOW, relative to the directory opened beneath the root
 * at set-up) and lock it. With release hold and close end (the seed) every lock stays held and
 * every file open until {@link #release}; unlock-each unlocks right after the lock, close each
 * closes right after (which drops a lock still held). One op is one file: open + lock [+ unlock] [+
 * close], timed as one.
 */
public final class LockFilesLoop extends CountingLoop {
  public static final int WARM_UP_FILES = 400;
  public static final String WARM_UP_PREFIX = ".warmup-";
  // Descriptors the warm-up keeps open (with hold or close-end) before closing them: well inside
  // the open-file headroom beside the run's own files.
  private static final int WARM_UP_HELD = 16;
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
  private final NumberedName names;

  /**
   * Opens {@code dir} beneath {@code root} without following links; throws PosixException if it
   * cannot. {@code process}: the worker's index, which its file names carry. {@code instrumented}:
   * time each file into the latency histogram.
   */
  public LockFilesLoop(
      Path dir, int process, LockFilesWorkload spec, Path root, boolean instrumented) {
    super(root, instrumented);
    this.dir = dir;
    try (RootDir rootDir = RootDir.open(root)) {
      this.dirFd = rootDir.dir(root.relativize(dir));
    }
    this.prefix = prefix(process);
    this.names = new NumberedName(prefix);
    this.spec = spec;
  }

  /** What the names of worker {@code process}'s files begin with. */
  public static String prefix(int process) {
    return "test-" + process + "-";
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
    return NumberedName.name(prefix, index);
  }

  /**
   * Runs the measured path on {@link #WARM_UP_FILES} scratch files, none counted, so the
   * native-call stubs are linked and the per-file code compiled before the instant: the measured
   * time holds the file system's work, not the worker JVM's warm-up. It goes through the run's own
   * per-file method ({@link #oneFile}) with the run's release and close settings, and ends as the
   * run does (histogram encoded, outcome built), so no first call is left for the measured part.
   * The files go to a directory of the worker's own on tmpfs ({@link ScratchDir}) and are gone
   * before the instant: the JIT compiles the same code whatever the file system, and on a slow one
   * (GFS2 creates ~40 files/s under emulation) 400 scratch files per worker cost the step seconds
   * of prepare. Without a tmpfs they go to the measured directory as {@code .warmup-PREFIXi} and
   * stay until cleanup (see {@link #warmUpName}).
   */
  @Override
  public void warmUp() {
    ScratchDir scratch = ScratchDir.onTmpfs("lockstep-warmup-" + prefix);
    if (scratch == null) {
      warmUpIn(dirFd.fd(), dir.toString(), WARM_UP_PREFIX + prefix);
      return;
    }
    try (scratch) {
      warmUpIn(scratch.dir().fd(), scratch.path().toString(), prefix);
    }
  }

  private void warmUpIn(int dirfd, String dirPath, String namePrefix) {
    Histogram scratch = LatencyHistograms.forRecording();
    NumberedName names = new NumberedName(namePrefix);
    List<Integer> kept = new ArrayList<>();
    Settings settings = settings();
    for (int i = 0; i < WARM_UP_FILES && !stopped; i++) {
      oneFile(dirfd, dirPath, names, i, settings, kept, scratch);
      progress.set(i + 1L); // the run's own count, on the loop's local counter until run
      if (kept.size() >= WARM_UP_HELD) {
        closeAll(kept);
      }
    }
    closeAll(kept);
    progress.set(0);
    endOfRun(WorkloadResult.newBuilder(), 0, 0, scratch);
  }

  private void closeAll(List<Integer> kept) {
    kept.forEach(posix::closeQuietly);
    kept.clear();
  }

  @Override
  public WorkloadResult run(long startAtUnixNanos) {
    WorkloadResult.Builder out = WorkloadResult.newBuilder();
    Histogram latency = instrumented ? LatencyHistograms.forRecording() : null;
    Settings settings = settings();
    long retries = 0;
    int dirfd = dirFd.fd();
    String dirPath = dir.toString();
    int files = spec.getFiles();
    long done = 0;
    if (!WallClockWait.until(startAtUnixNanos, isStopped)) {
      return out.build();
    }
    long started = WallClock.nowNanos();
    out.setStartedUnixNanos(started).setFirstOpUnixNanos(started);
    for (int i = 0; i < files && !stopped; i++) {
      try {
        long r = oneFile(dirfd, dirPath, names, i, settings, null, latency);
        if (r < 0) {
          retries += Locks.retriesOfStopped(r);
          break;
        }
        retries += r;
        progress.set(++done);
        if (done == 1) {
          WallClockWait.firstOpDone();
        }
      } catch (PosixException e) {
        out.setError(WorkloadErrors.of(e, root, "failed after " + done + " files"));
        break;
      }
    }
    long end = WallClock.nowNanos();
    WallClockWait.firstOpDone();
    // What is left is bookkeeping: at the lowest priority, so a worker done early does not take
    // a CPU from those still measuring (on 2 cores, ten workers' histogram encoding, outcome
    // writes and the JIT compiling them, at normal priority, added ~10 ms to a 10 x 1000 step).
    posix.lowerProcessPriority();
    return endOfRun(out.setEndUnixNanos(end), done, retries, latency);
  }

  private static WorkloadResult endOfRun(
      WorkloadResult.Builder out, long ops, long retries, Histogram latency) {
    return out.setOps(ops)
        .setLockRetries(retries)
        .setLatencyHistogram(
            LatencyHistograms.encode(latency != null ? latency : LatencyHistograms.create()))
        .build();
  }

  /** The run's lock mode, release and close settings, read from the spec once. */
  private record Settings(LockMode mode, boolean unlockEach, boolean closeEach) {}

  private Settings settings() {
    return new Settings(
        LockMode.of(spec.getLock(), spec.getShared(), spec.getTryLock()),
        spec.getRelease() == LockRelease.LOCK_RELEASE_UNLOCK_EACH,
        spec.getClose() == FileClose.FILE_CLOSE_EACH);
  }

  /**
   * One file, the measured operation: open, lock [+ unlock] [+ close], or the descriptor kept in
   * {@code keep} (null: open until the process ends); timed into {@code latency} unless it is null.
   * Returns the try-lock retries, or what {@link Locks#acquire} returns when stopped while waiting.
   * No String is made for the file unless a call fails.
   */
  private long oneFile(
      int dirfd,
      String dirPath,
      NumberedName names,
      int index,
      Settings settings,
      List<Integer> keep,
      Histogram latency) {
    long t0 = latency != null ? System.nanoTime() : 0;
    int fd = posix.openat(dirfd, names, index, FLAGS, 0644, dirPath);
    long r;
    try {
      r = lockOne(fd, settings, keep);
    } catch (PosixException e) {
      throw e.on(dirPath + "/" + names.name(index));
    }
    if (latency != null && r >= 0) {
      latency.recordValue(System.nanoTime() - t0);
    }
    return r;
  }

  /** After the open: lock [+ unlock] [+ close], or keep the descriptor. Errors name no path. */
  private long lockOne(int fd, Settings settings, List<Integer> keep) {
    if (!settings.closeEach() && keep != null) {
      keep.add(fd);
    }
    try {
      long r = locks.acquire(fd, settings.mode(), 0, 0, null, isStopped);
      if (r >= 0 && settings.unlockEach()) {
        locks.release(fd, settings.mode(), 0, 0, null);
      }
      return r;
    } finally {
      if (settings.closeEach()) {
        posix.close(fd, null);
      }
    }
  }
}

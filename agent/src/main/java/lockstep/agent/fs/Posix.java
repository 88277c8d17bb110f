package lockstep.agent.fs;

import java.io.File;
import java.util.function.LongFunction;
import jnr.constants.platform.Errno;
import jnr.constants.platform.Fcntl;
import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.PRIO;
import jnr.constants.platform.PosixFadvise;
import jnr.constants.platform.RLIMIT;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * Real system calls for workloads' files through a small jnr-ffi {@link LibC}: open/close/fsync,
 * aligned I/O, {@code *at} calls, the clock, priorities and rlimits. Lock calls are {@link Locks}'.
 * Every call either succeeds or throws {@link PosixException} carrying errno, the call and the
 * path.
 */
public final class Posix {
  // jnr-constants' values where it has them, else Linux values (same on x86_64 and aarch64 unless
  // noted): it lacks O_DIRECT, for one.
  public static final int O_RDONLY = OpenFlags.O_RDONLY.intValue();
  public static final int O_WRONLY = OpenFlags.O_WRONLY.intValue();
  public static final int O_RDWR = OpenFlags.O_RDWR.intValue();
  private static final int PRIO_PROCESS = PRIO.PRIO_PROCESS.intValue();
  private static final int LOWEST_PRIORITY = 19;
  // The descriptors a new process's table holds before the kernel first grows it (NR_OPEN_DEFAULT).
  private static final int DEFAULT_DESCRIPTOR_TABLE = 64;
  public static final int O_CREAT = OpenFlags.O_CREAT.intValue();
  public static final int O_SYNC = OpenFlags.O_SYNC.intValue();
  public static final int O_DIRECT = isArm() ? 0200000 : 040000;
  public static final int O_EXCL = OpenFlags.O_EXCL.intValue();
  public static final int O_NOFOLLOW = isArm() ? 0100000 : 0400000;
  public static final int O_DIRECTORY = isArm() ? 040000 : 0200000;
  public static final int O_CLOEXEC = 02000000;
  public static final int O_PATH = 010000000;
  private static final int AT_FDCWD = -100;
  static final int AT_SYMLINK_NOFOLLOW = 0x100;
  private static final int AT_EMPTY_PATH = 0x1000;
  private static final int F_DUPFD = Fcntl.F_DUPFD.intValue();
  static final int AT_REMOVEDIR = 0x200;
  private static final long SYS_OPENAT2 = 437; // the same number on every architecture
  private static final int STRUCT_STAT_SIZE =
      256; // >= sizeof(struct stat) on x86_64 (144) and aarch64 (128)

  private static final int RLIMIT_NOFILE = RLIMIT.RLIMIT_NOFILE.intValue();
  private static final int POSIX_FADV_DONTNEED = PosixFadvise.POSIX_FADV_DONTNEED.intValue();
  private static final int CLOCK_REALTIME = 0;
  private static final int TIMER_ABSTIME = 1;

  private static final Posix INSTANCE = new Posix();

  private final LibC libc;
  private final LibCWithoutErrno withoutErrno;
  private final Runtime runtime;
  private final ThreadLocal<Pointer> timespec;
  private final ThreadLocal<Pointer> rawStat;

  private Posix() {
    this.libc = LibraryLoader.create(LibC.class).option(LibraryOption.SaveError, true).load("c");
    this.withoutErrno = LibraryLoader.create(LibCWithoutErrno.class).load("c");
    this.runtime = Runtime.getRuntime(libc);
    this.timespec = ThreadLocal.withInitial(() -> Memory.allocateDirect(runtime, 16, true));
    this.rawStat =
        ThreadLocal.withInitial(() -> Memory.allocateDirect(runtime, STRUCT_STAT_SIZE, true));
  }

  public static Posix get() {
    return INSTANCE;
  }

  LibC libc() {
    return libc;
  }

  LibCWithoutErrno withoutErrno() {
    return withoutErrno;
  }

  Runtime runtime() {
    return runtime;
  }

  private static boolean isArm() {
    String arch = System.getProperty("os.arch", "");
    return arch.startsWith("aarch64") || arch.startsWith("arm");
  }

  /**
   * Sleeps until the wall clock (CLOCK_REALTIME) reads {@code unixNanos}, as {@code
   * clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME)}: the kernel wakes the thread at the instant
   * itself, so many waiting processes need no CPU until then.
   */
  public void sleepUntil(long unixNanos) {
    Pointer ts = timespec.get();
    ts.putLong(0, Math.floorDiv(unixNanos, 1_000_000_000L));
    ts.putLong(8, Math.floorMod(unixNanos, 1_000_000_000L));
    int rc;
    do {
      rc = libc.clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, ts, null);
    } while (rc == Errno.EINTR.intValue());
    if (rc != 0) {
      throw new PosixException(
          "clock_nanosleep", "", rc, "", "clock_nanosleep failed with error " + rc);
    }
  }

  public int open(String path, int flags, int mode) {
    return openat(AT_FDCWD, path, flags, mode, path);
  }

  /** openat(2); {@code path} names the file in errors (the directory's path plus the name). */
  public int openat(int dirfd, String name, int flags, int mode, String path) {
    while (true) {
      int fd = libc.openat(dirfd, name, flags, mode);
      if (fd >= 0) {
        return fd;
      }
      int errno = runtime.getLastError();
      if (errno != Errno.EINTR.intValue()) {
        throw error("open", path, errno);
      }
    }
  }

  /**
   * openat(2) of the name {@code names} numbers {@code index}, with no String made or converted
   * unless the call fails: the per-file open of lock-files. The call is made without errno saved; a
   * failed one opened nothing and is made again through {@link #openat(int, String, int, int,
   * String)}, which says why ({@code dir} and the name in the error).
   */
  public int openat(int dirfd, NumberedName names, int index, int flags, int mode, String dir) {
    int fd = withoutErrno.openat(dirfd, names.address(index), flags, mode);
    if (fd >= 0) {
      return fd;
    }
    String name = names.name(index);
    return openat(dirfd, name, flags, mode, dir + "/" + name);
  }

  /**
   * openat2(2) with {@code resolve} flags (RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS...). Returns the
   * descriptor, or minus errno (ENOSYS where the kernel lacks it) without throwing.
   */
  int openat2(int dirfd, String relative, long flags, long mode, long resolve) {
    Pointer how =
        Memory.allocateDirect(runtime, 24, true); // struct open_how { u64 flags, mode, resolve; }
    how.putLong(0, flags);
    how.putLong(8, mode);
    how.putLong(16, resolve);
    while (true) {
      long fd = libc.syscall(SYS_OPENAT2, dirfd, relative, how, 24);
      if (fd >= 0) {
        return (int) fd;
      }
      int errno = runtime.getLastError();
      if (errno != Errno.EINTR.intValue() && errno != Errno.EAGAIN.intValue()) {
        return -errno;
      }
    }
  }

  /** mkdirat(2); false if the name already exists (EEXIST), throws on anything else. */
  public boolean mkdirat(int dirfd, String name, int mode, String path) {
    if (libc.mkdirat(dirfd, name, mode) == 0) {
      return true;
    }
    int errno = runtime.getLastError();
    if (errno == Errno.EEXIST.intValue()) {
      return false;
    }
    throw error("mkdir", path, errno);
  }

  /** unlinkat(2) of a file, or of an empty directory with {@code directory}. */
  public void unlinkat(int dirfd, String name, boolean directory, String path) {
    if (libc.unlinkat(dirfd, name, directory ? AT_REMOVEDIR : 0) < 0) {
      throw error(directory ? "rmdir" : "unlink", path, runtime.getLastError());
    }
  }

  /** renameat(2) within one directory. */
  public void renameat(int dirfd, String from, String to, String path) {
    if (libc.renameat(dirfd, from, dirfd, to) < 0) {
      throw error("rename", path, runtime.getLastError());
    }
  }

  /** fstatat(2) without following a link at the name; throws on failure (ENOENT, ESTALE, ...). */
  public void statat(int dirfd, String name, String path) {
    if (libc.fstatat(dirfd, name, rawStat.get(), AT_SYMLINK_NOFOLLOW) < 0) {
      throw error("stat", path, runtime.getLastError());
    }
  }

  /** fstat(2) of an open descriptor: what it is, its identity and its link count. */
  public FileId fstat(int fd, String path) {
    Pointer st = rawStat.get();
    if (libc.fstatat(fd, "", st, AT_EMPTY_PATH) < 0) {
      throw error("fstat", path, runtime.getLastError());
    }
    return StatLayout.current().fileId(st);
  }

  public void close(int fd, String path) {
    if (libc.close(fd) < 0) {
      throw error("close", path, runtime.getLastError());
    }
  }

  /** Closes without throwing; used on cleanup paths where the first error is what matters. */
  public void closeQuietly(int fd) {
    if (fd >= 0) {
      libc.close(fd);
    }
  }

  public void fdatasync(int fd, String path) {
    if (libc.fdatasync(fd) < 0) {
      throw error("fdatasync", path, runtime.getLastError());
    }
  }

  public void fsync(int fd, String path) {
    if (libc.fsync(fd) < 0) {
      throw error("fsync", path, runtime.getLastError());
    }
  }

  /** Writes count bytes of the buffer at offset, retrying short writes. */
  public long pwriteFully(int fd, AlignedBuffer buf, long count, long offset, String path) {
    return fully(PWRITE, fd, buf, count, offset, path);
  }

  /** Reads exactly count bytes at offset (short reads retried); a read past the end throws. */
  public long preadFully(int fd, AlignedBuffer buf, long count, long offset, String path) {
    return fully(PREAD, fd, buf, count, offset, path);
  }

  /**
   * pwrite(2) or pread(2): the call without errno saved, the call with it, and what a call that
   * moved nothing means at an offset.
   */
  private record Transfer(
      String name, FastCall fast, Call call, LongFunction<String> nothingMoved) {
    interface FastCall {
      long apply(LibCWithoutErrno libc, int fd, long buf, long count, long offset);
    }

    interface Call {
      long apply(LibC libc, int fd, Pointer buf, long count, long offset);
    }
  }

  private static final Transfer PWRITE =
      new Transfer(
          "pwrite", LibCWithoutErrno::pwrite, LibC::pwrite, at -> "pwrite returned 0 bytes");
  private static final Transfer PREAD =
      new Transfer(
          "pread", LibCWithoutErrno::pread, LibC::pread, at -> "end of file at offset " + at);

  /**
   * All of count bytes at offset, a call at a time; EINTR retried. The first call goes without
   * errno saved (one per block in the measured loops): one that fails moved nothing and is made
   * again below, errno saved.
   */
  private long fully(Transfer t, int fd, AlignedBuffer buf, long count, long offset, String path) {
    long done = Math.max(0, t.fast().apply(withoutErrno, fd, buf.address(), count, offset));
    while (done < count) {
      long n = t.call().apply(libc, fd, at(buf, done), count - done, offset + done);
      if (n < 0) {
        int errno = runtime.getLastError();
        if (errno == Errno.EINTR.intValue()) {
          continue;
        }
        throw error(t.name(), path, errno);
      }
      if (n == 0) {
        throw new PosixException(t.name(), path, 0, "", t.nothingMoved().apply(offset + done));
      }
      done += n;
    }
    return done;
  }

  // The measured loops call the *Fully methods once per block: slice only after a short transfer.
  private static Pointer at(AlignedBuffer buf, long done) {
    return done == 0 ? buf.pointer() : buf.pointer().slice(done);
  }

  /**
   * Drops the file's cached pages (fio's invalidate=1), so buffered reads come from the file
   * system.
   */
  public void dropCache(int fd, String path) {
    int rc = libc.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc != 0) {
      throw error("posix_fadvise(DONTNEED)", path, rc);
    }
  }

  public void ftruncate(int fd, long length, String path) {
    if (libc.ftruncate(fd, length) < 0) {
      throw error("ftruncate", path, runtime.getLastError());
    }
  }

  /**
   * Gives every thread of this process the lowest CPU priority (nice 19; on Linux the nice value is
   * a thread's, so each thread in {@code /proc/self/task} is set): for a worker's bookkeeping after
   * its measured part, so that neither it nor the JIT compiling that bookkeeping takes a CPU from
   * the workers still measuring. Best effort: a refusal changes nothing.
   */
  public void lowerProcessPriority() {
    libc.setpriority(PRIO_PROCESS, 0, LOWEST_PRIORITY); // this thread first: the rest is slower
    String[] threads = new File("/proc/self/task").list();
    if (threads == null) {
      return;
    }
    for (String tid : threads) {
      libc.setpriority(PRIO_PROCESS, Integer.parseInt(tid), LOWEST_PRIORITY);
    }
  }

  /** This process's id. */
  public int getpid() {
    return libc.getpid();
  }

  /** Soft and hard RLIMIT_NOFILE; -1 for RLIM_INFINITY. */
  public long[] openFileLimits() {
    Pointer rlim = Memory.allocateDirect(runtime, 16, true);
    if (libc.getrlimit(RLIMIT_NOFILE, rlim) < 0) {
      throw error("getrlimit(RLIMIT_NOFILE)", "", runtime.getLastError());
    }
    return new long[] {rlim.getLong(0), rlim.getLong(8)};
  }

  /**
   * Raises the soft open-file limit to at least {@code needed}, up to the hard limit. Returns false
   * if the hard limit is below what is needed.
   */
  public boolean raiseOpenFileLimit(long needed) {
    long[] limits = openFileLimits();
    if (limits[0] >= needed) {
      return true;
    }
    if (limits[1] >= 0 && limits[1] < needed) {
      return false;
    }
    Pointer rlim = Memory.allocateDirect(runtime, 16, true);
    rlim.putLong(0, needed);
    rlim.putLong(8, limits[1]);
    return libc.setrlimit(RLIMIT_NOFILE, rlim) == 0;
  }

  /**
   * Grows this process's descriptor table to hold {@code count} descriptors now, by placing a
   * duplicate at the last of them and closing it again. The kernel grows the table by doubling when
   * a new descriptor does not fit, and in a process of several threads (every JVM) each growth
   * waits for an RCU grace period ({@code synchronize_rcu} in {@code expand_fdtable}): 6-20 ms each
   * on a 2-core VM, at the 256th and 512th file of a lock-files worker, inside the measured time.
   * The table never shrinks, so growing it before the instant takes that out. Best effort: F_DUPFD
   * places the copy at the lowest free number from there, so nothing open is touched.
   */
  public void growDescriptorTable(long count) {
    if (count <= DEFAULT_DESCRIPTOR_TABLE) {
      return;
    }
    int fd = withoutErrno.fcntl(0, F_DUPFD, Math.min(count - 1, Integer.MAX_VALUE - 1));
    if (fd >= 0) {
      libc.close(fd);
    }
  }

  public AlignedBuffer allocateAligned(int size, int alignment) {
    return new AlignedBuffer(runtime, size, alignment);
  }

  public static PosixException error(String operation, String path, int errno) {
    Errno e = Errno.valueOf(errno);
    String name = e == null || e == Errno.__UNKNOWN_CONSTANT__ ? "errno " + errno : e.name();
    String text = e == null || e == Errno.__UNKNOWN_CONSTANT__ ? "" : e.description();
    return new PosixException(operation, path, errno, name, text);
  }
}

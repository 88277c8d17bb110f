package lockstep.agent.fs;

import jnr.ffi.Pointer;

/**
 * The libc calls the agent and its workers make, bound by jnr-ffi: files and descriptors, writes
 * and reads from an aligned native buffer (O_DIRECT), fcntl with a {@code struct flock} (record and
 * OFD locks), flock, {@code clock_nanosleep} to an absolute instant, priorities and limits. {@link
 * Posix} loads it with errno saved after every call (jnr-ffi's {@code SaveError}), for {@code
 * Runtime.getLastError()}. Only these are bound: jnr-posix's whole C library interface took half of
 * jnr's set-up in each worker JVM's start (240 of 510 ms on the host).
 */
public interface LibC {
  int close(int fd);

  int fsync(int fd);

  int fdatasync(int fd);

  int ftruncate(int fd, long length);

  int flock(int fd, int operation);

  int getpid();

  int setpriority(int which, int who, int prio);

  /** {@code rlim}: a {@code struct rlimit} (two unsigned longs: soft, hard). */
  int getrlimit(int resource, Pointer rlim);

  int setrlimit(int resource, Pointer rlim);

  long pwrite(int fd, Pointer buf, long count, long offset);

  long pread(int fd, Pointer buf, long count, long offset);

  int fcntl(int fd, int cmd, Pointer flock);

  int posix_fadvise(int fd, long offset, long len, int advice);

  /** {@code pid} 0: the calling thread. */
  int sched_getscheduler(int pid);

  /** {@code param}: a {@code struct sched_param} (one int, the priority). */
  int sched_setscheduler(int pid, int policy, Pointer param);

  /** Returns 0 or an error number (it does not set errno). */
  int clock_nanosleep(int clockId, int flags, Pointer request, Pointer remain);

  // Calls relative to a directory descriptor, for resolving beneath the agent root (RootDir).
  int openat(int dirfd, String path, int flags, int mode);

  int mkdirat(int dirfd, String path, int mode);

  int unlinkat(int dirfd, String path, int flags);

  int renameat(int olddirfd, String oldpath, int newdirfd, String newpath);

  int fstatat(int dirfd, String path, Pointer statbuf, int flags);

  /** openat2(2) has no libc wrapper in older glibc: called through syscall(2). */
  long syscall(long number, int dirfd, String path, Pointer how, long size);
}

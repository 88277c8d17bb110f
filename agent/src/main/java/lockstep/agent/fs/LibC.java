package lockstep.agent.fs;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;

/**
 * The few libc calls jnr-posix does not expose in the form we need: writes and reads from an
 * aligned native buffer (O_DIRECT), fcntl with a {@code struct flock} (record and OFD locks), and
 * {@code clock_nanosleep} to an absolute instant.
 */
public interface LibC {
  @SaveError
  long pwrite(int fd, Pointer buf, long count, long offset);

  @SaveError
  long pread(int fd, Pointer buf, long count, long offset);

  @SaveError
  int fcntl(int fd, int cmd, Pointer flock);

  @SaveError
  int posix_fadvise(int fd, long offset, long len, int advice);

  /** Returns 0 or an error number (it does not set errno). */
  int clock_nanosleep(int clockId, int flags, Pointer request, Pointer remain);

  // Calls relative to a directory descriptor, for resolving beneath the agent root (RootDir).
  @SaveError
  int openat(int dirfd, String path, int flags, int mode);

  @SaveError
  int mkdirat(int dirfd, String path, int mode);

  @SaveError
  int unlinkat(int dirfd, String path, int flags);

  @SaveError
  int renameat(int olddirfd, String oldpath, int newdirfd, String newpath);

  @SaveError
  int fstatat(int dirfd, String path, Pointer statbuf, int flags);

  /** openat2(2) has no libc wrapper in older glibc: called through syscall(2). */
  @SaveError
  long syscall(long number, int dirfd, String path, Pointer how, long size);
}

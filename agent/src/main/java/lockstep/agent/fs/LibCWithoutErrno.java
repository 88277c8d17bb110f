package lockstep.agent.fs;

import jnr.ffi.annotations.IgnoreError;

/**
 * libc calls of the measured paths with their pointers as native addresses and errno not saved
 * after the call. jnr-ffi saving errno after every call took about a tenth of a lock call's rate in
 * a lab guest under software emulation (LockCallBench on GFS2, docs/performance.md). Only for calls
 * whose failure the caller makes again through a call that saves errno ({@link LibC}): a blocking
 * lock or an unlock, fcntl or flock, where a failed call took nothing ({@link Locks}); a block's
 * pwrite or pread, where a failed call moved nothing ({@link Posix#pwriteFully}); an open, where a
 * failed call opened nothing ({@link Posix#openat(int, NumberedName, int, int, int, String)}).
 */
public interface LibCWithoutErrno {
  @IgnoreError
  int fcntl(int fd, int cmd, long flock);

  @IgnoreError
  int flock(int fd, int operation);

  /** {@code buf}: the address of native memory ({@link AlignedBuffer#address()}). */
  @IgnoreError
  long pwrite(int fd, long buf, long count, long offset);

  @IgnoreError
  long pread(int fd, long buf, long count, long offset);

  /** {@code name}: the address of a NUL-terminated name ({@link NumberedName}). */
  @IgnoreError
  int openat(int dirfd, long name, int flags, int mode);
}

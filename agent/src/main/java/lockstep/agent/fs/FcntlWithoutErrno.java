package lockstep.agent.fs;

import jnr.ffi.annotations.IgnoreError;

/**
 * fcntl(2) with a {@code struct flock} at a native address, errno not saved after the call. jnr-ffi
 * saving errno after every call took about a tenth of a lock call's rate in a lab guest under
 * software emulation (LockCallBench on GFS2, docs/workloads.md). Only for calls whose failure
 * {@link Locks} makes again through {@link LibC#fcntl}, which saves errno: a blocking lock or an
 * unlock, where a failed call took nothing.
 */
public interface FcntlWithoutErrno {
  @IgnoreError
  int fcntl(int fd, int cmd, long flock);
}

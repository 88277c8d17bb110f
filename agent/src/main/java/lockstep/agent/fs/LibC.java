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
}

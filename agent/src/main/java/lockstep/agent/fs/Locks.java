package lockstep.agent.fs;

import java.util.function.BooleanSupplier;
import jnr.constants.platform.Errno;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * The lock calls workloads measure: flock(2), fcntl(2) record locks (F_SETLK[W]) and
 * open-file-description locks (F_OFD_SETLK[W]) with a {@code struct flock} through jnr-ffi. Every
 * call either succeeds or throws {@link PosixException} carrying errno, the call and the path; a
 * try-lock that finds the lock held is not an error.
 */
public final class Locks {
  static final int LOCK_SH = 1;
  static final int LOCK_EX = 2;
  static final int LOCK_NB = 4;
  static final int LOCK_UN = 8;
  private static final int STRUCT_FLOCK_SIZE = 32;

  /** The fcntl(2) lock commands (Linux values), by the names errors give them. */
  private enum Command {
    F_SETLK(6, false),
    F_SETLKW(7, true),
    F_OFD_SETLK(37, false),
    F_OFD_SETLKW(38, true);

    final int value;
    final boolean blocking;

    Command(int value, boolean blocking) {
      this.value = value;
      this.blocking = blocking;
    }
  }

  /** The l_type of a {@code struct flock} (Linux values), by the names errors give them. */
  private enum Type {
    F_RDLCK(0),
    F_WRLCK(1),
    F_UNLCK(2);

    final short value;

    Type(int value) {
      this.value = (short) value;
    }
  }

  private static final Locks INSTANCE = new Locks(Posix.get());

  private final LibC libc;
  private final LibCWithoutErrno withoutErrno;
  private final Runtime runtime;
  private final ThreadLocal<FlockStruct> flockStruct;

  private Locks(Posix p) {
    this.libc = p.libc();
    this.withoutErrno = p.withoutErrno();
    this.runtime = p.runtime();
    this.flockStruct = ThreadLocal.withInitial(() -> new FlockStruct(runtime));
  }

  public static Locks get() {
    return INSTANCE;
  }

  /**
   * Takes a lock, whole file when {@code len} is 0 (flock always whole file), byte range otherwise.
   * Blocking modes wait in the kernel; try-lock modes repeat the non-blocking call until it
   * succeeds (or {@code stop} says to give up) and return how many attempts found the lock held.
   * Returns {@code -1 - retries} when stopped before the lock was taken (see {@link
   * #retriesOfStopped}): a waiter starved for the whole run still reports its attempts.
   */
  public long acquire(
      int fd, LockMode mode, long start, long len, String path, BooleanSupplier stop) {
    long retries = 0;
    while (true) {
      boolean got =
          mode.kind() == LockCall.FLOCK
              ? flock(fd, mode, path)
              : lockRange(fd, mode, start, len, path);
      if (got) {
        return retries;
      }
      if (retries == 0) {
        // A thread still real-time from its start wake would spin here with the holder, a
        // normal thread, perhaps kept off this CPU: it steps down before its first retry.
        WallClockWait.firstOpDone();
      }
      if (stop.getAsBoolean()) {
        return -1 - retries;
      }
      retries++;
      Thread.onSpinWait();
    }
  }

  /**
   * The attempts that found the lock held, from what {@link #acquire} returned when stopped
   * (negative).
   */
  public static long retriesOfStopped(long acquired) {
    return -1 - acquired;
  }

  /** Gives back what {@link #acquire} took. */
  public void release(int fd, LockMode mode, long start, long len, String path) {
    if (mode.kind() != LockCall.FLOCK) {
      unlockRange(fd, mode, start, len, path);
    } else if (withoutErrno.flock(fd, LOCK_UN) != 0 && libc.flock(fd, LOCK_UN) < 0) {
      throw Posix.error("flock(LOCK_UN)", path, runtime.getLastError());
    }
  }

  /** Record lock on a byte range (fcntl or OFD kinds only). */
  public boolean lockRange(int fd, LockMode mode, long start, long len, String path) {
    Command cmd =
        switch (mode.kind()) {
          case FCNTL -> mode.blocking() ? Command.F_SETLKW : Command.F_SETLK;
          case OFD -> mode.blocking() ? Command.F_OFD_SETLKW : Command.F_OFD_SETLK;
          case FLOCK -> throw new IllegalArgumentException("flock locks whole files only");
        };
    Type type = mode.exclusive() ? Type.F_WRLCK : Type.F_RDLCK;
    return setFlock(fd, cmd, type, start, len, path);
  }

  public void unlockRange(int fd, LockMode mode, long start, long len, String path) {
    Command cmd = mode.kind() == LockCall.OFD ? Command.F_OFD_SETLK : Command.F_SETLK;
    setFlock(fd, cmd, Type.F_UNLCK, start, len, path);
  }

  private boolean flock(int fd, LockMode mode, String path) {
    int op = (mode.exclusive() ? LOCK_EX : LOCK_SH) | (mode.blocking() ? 0 : LOCK_NB);
    // As in setFlock: a blocking call that fails took nothing and is made again, errno saved.
    if (mode.blocking() && withoutErrno.flock(fd, op) == 0) {
      return true;
    }
    while (true) {
      if (libc.flock(fd, op) == 0) {
        return true;
      }
      int errno = runtime.getLastError();
      if (errno == Errno.EINTR.intValue()) {
        continue;
      }
      if (!mode.blocking() && isBusy(errno)) {
        return false;
      }
      throw Posix.error(mode.exclusive() ? "flock(LOCK_EX)" : "flock(LOCK_SH)", path, errno);
    }
  }

  /**
   * One thread's {@code struct flock} (l_type, l_whence, l_start, l_len, l_pid), zeroed at
   * allocation (SEEK_SET; l_pid 0 as OFD locks need) and written only where a call differs from the
   * last: the set commands never write it back. Writes go through an unbounded view of the memory:
   * the lock call is the measured operation, and bounds checks showed in its profile.
   */
  private static final class FlockStruct {
    final Pointer memory;
    final Pointer view;
    final long address;
    Type type;
    long start = -1;
    long len = -1;

    FlockStruct(Runtime runtime) {
      memory = Memory.allocateDirect(runtime, STRUCT_FLOCK_SIZE, true);
      view = Pointer.wrap(runtime, memory.address());
      address = memory.address();
    }

    Pointer set(Type type, long start, long len) {
      if (type != this.type) {
        view.putShort(0, type.value);
        this.type = type;
      }
      if (start != this.start) {
        view.putLong(8, start);
        this.start = start;
      }
      if (len != this.len) {
        view.putLong(16, len);
        this.len = len;
      }
      return view;
    }
  }

  private boolean setFlock(int fd, Command cmd, Type type, long start, long len, String path) {
    FlockStruct struct = flockStruct.get();
    Pointer flock = struct.set(type, start, len);
    // A blocking lock or an unlock first without errno saved: it fails only on a signal (EINTR)
    // or a real error, having taken nothing, and is then made again below, errno saved.
    if ((cmd.blocking || type == Type.F_UNLCK)
        && withoutErrno.fcntl(fd, cmd.value, struct.address) == 0) {
      return true;
    }
    while (true) {
      if (libc.fcntl(fd, cmd.value, flock) == 0) {
        return true;
      }
      int errno = runtime.getLastError();
      if (errno == Errno.EINTR.intValue()) {
        continue;
      }
      if (!cmd.blocking && type != Type.F_UNLCK && isBusy(errno)) {
        return false;
      }
      // The call's name is built only here: lock calls are the measured operation.
      throw Posix.error("fcntl(" + cmd + ", " + type + ")", path, errno);
    }
  }

  private static boolean isBusy(int errno) {
    return errno == Errno.EAGAIN.intValue()
        || errno == Errno.EACCES.intValue()
        || errno == Errno.EWOULDBLOCK.intValue();
  }
}

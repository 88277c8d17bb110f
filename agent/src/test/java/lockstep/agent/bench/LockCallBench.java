package lockstep.agent.bench;

import java.util.function.IntSupplier;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.IgnoreError;
import jnr.ffi.annotations.SaveError;
import lockstep.agent.fs.LockCall;
import lockstep.agent.fs.LockMode;
import lockstep.agent.fs.Locks;
import lockstep.agent.fs.Posix;

/**
 * The cost of one fcntl lock or unlock call by the paths jnr-ffi offers, in a ping-pong ring of one
 * process (lock slot i+1, unlock slot i), on a file FILE for SECONDS each: {@code LockCallBench
 * FILE SECONDS}. Prints ops/s (lock and unlock each count, as ping_pong).
 */
public final class LockCallBench {
  public interface Saved {
    @SaveError
    int fcntl(int fd, int cmd, Pointer flock);
  }

  public interface Address {
    @IgnoreError
    int fcntl(int fd, int cmd, long flock);
  }

  public interface AddressSaved {
    @SaveError
    int fcntl(int fd, int cmd, long flock);
  }

  public static void main(String[] args) throws Exception {
    String file = args[0];
    double seconds = Double.parseDouble(args[1]);
    Posix posix = Posix.get();
    int fd = posix.open(file, Posix.O_RDWR | Posix.O_CREAT, 0644);
    LockMode mode = new LockMode(LockCall.FCNTL, true, true);
    Saved saved = LibraryLoader.create(Saved.class).load("c");
    Address address = LibraryLoader.create(Address.class).load("c");
    AddressSaved addressSaved = LibraryLoader.create(AddressSaved.class).load("c");
    Runtime rt = Runtime.getRuntime(saved);
    Pointer mem = Memory.allocateDirect(rt, 32, true);
    long addr = mem.address();
    for (int round = 0; round < 3; round++) {
      report(
          "locks (Locks.lockRange)",
          seconds,
          () -> {
            Locks l = Locks.get();
            return ring(
                seconds,
                (slot, lock) -> {
                  if (lock) {
                    l.lockRange(fd, mode, slot, 1, file);
                  } else {
                    l.unlockRange(fd, mode, slot, 1, file);
                  }
                });
          });
      report(
          "Pointer @SaveError",
          seconds,
          () -> rawRing(seconds, mem, () -> saved.fcntl(fd, 7, mem)));
      report(
          "long @SaveError",
          seconds,
          () -> rawRing(seconds, mem, () -> addressSaved.fcntl(fd, 7, addr)));
      report(
          "long @IgnoreError",
          seconds,
          () -> rawRing(seconds, mem, () -> address.fcntl(fd, 7, addr)));
    }
  }

  interface Call {
    void call(int slot, boolean lock);
  }

  interface Measured {
    long ops() throws Exception;
  }

  private static void report(String what, double seconds, Measured m) throws Exception {
    long ops = m.ops();
    System.out.printf("%-28s %,12.0f ops/s%n", what, ops / seconds);
  }

  private static long ring(double seconds, Call c) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long ops = 0;
    int i = 0;
    c.call(0, true);
    while (true) {
      int next = (i + 1) % 2;
      c.call(next, true);
      c.call(i, false);
      i = next;
      ops += 2;
      if ((ops & 1023) == 0 && System.nanoTime() > end) {
        break;
      }
    }
    c.call(i, false);
    return ops;
  }

  /**
   * A ring of raw fcntl calls on the struct flock at {@code flock}: l_type (F_WRLCK 1, F_UNLCK 2)
   * at offset 0, l_start at 8, l_len at 16, set before each call.
   */
  private static long rawRing(double seconds, Pointer flock, IntSupplier fcntl) {
    return ring(
        seconds,
        (slot, lock) -> {
          flock.putShort(0, lock ? (short) 1 : (short) 2);
          flock.putLong(8, slot);
          flock.putLong(16, 1);
          check(fcntl.getAsInt());
        });
  }

  private static void check(int rc) {
    if (rc != 0) {
      throw new IllegalStateException("fcntl failed");
    }
  }

  private LockCallBench() {}
}

package lockstep.agent.worker;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A worker's count of operations, shared with its agent through one mapped page rather than sent as
 * messages: the loop stores its count (an opaque store, as cheap as a plain one), the agent reads
 * it whenever it samples. While the worker runs it has no thread, pipe write or code besides its
 * loop (on a one-CPU guest a progress thread took about 1% of the CPU in the measured part, and its
 * first calls were compiled there).
 */
public final class ProgressCounter {
  private static final VarHandle LONG =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final ByteBuffer page;

  private ProgressCounter(ByteBuffer page) {
    this.page = page;
  }

  /** A counter that no other process sees (before the shared one is mapped; tests). */
  public static ProgressCounter local() {
    return new ProgressCounter(ByteBuffer.allocateDirect(Long.BYTES));
  }

  /**
   * Maps {@code file} (created if missing, grown to 8 bytes) read-write; the mapping stays valid
   * after the file is removed.
   */
  public static ProgressCounter map(Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return new ProgressCounter(ch.map(FileChannel.MapMode.READ_WRITE, 0, Long.BYTES));
    }
  }

  /**
   * Runs the counter's paths on a local counter until the JIT has them, before a worker reports
   * ready, so the VarHandle's path is not first interpreted and compiled inside the measured part
   * (suspected, not proven, of one lock-files series at 99-104k flock locks/s against 133-153k;
   * docs/performance.md).
   */
  public static void warmUp() {
    ProgressCounter c = local();
    for (int i = 0; i < 20_000; i++) {
      c.set(i);
      c.add(1);
      c.get();
    }
  }

  /** Written by one thread only. */
  public void set(long ops) {
    LONG.setOpaque(page, 0, ops);
  }

  /** For loops whose threads count together. */
  public void add(long n) {
    LONG.getAndAdd(page, 0, n);
  }

  public long get() {
    return (long) LONG.getOpaque(page, 0);
  }
}

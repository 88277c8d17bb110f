package lockstep.agent.fs;

import java.util.Arrays;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/** Native memory aligned for O_DIRECT (the alignment must be a power of two). */
public final class AlignedBuffer {
  private final Pointer backing; // kept so the allocation is not freed while in use
  private final Pointer aligned;
  private final int size;

  AlignedBuffer(Runtime runtime, int size, int alignment) {
    if (Integer.bitCount(alignment) != 1) {
      throw new IllegalArgumentException("alignment must be a power of two: " + alignment);
    }
    this.size = size;
    this.backing = Memory.allocateDirect(runtime, (long) size + alignment, true);
    long address = (backing.address() + alignment - 1) & -((long) alignment);
    this.aligned = backing.slice(address - backing.address(), size);
  }

  public Pointer pointer() {
    return aligned;
  }

  public int size() {
    return size;
  }

  public long address() {
    return aligned.address();
  }

  public void fill(byte value) {
    // Bulk put: jnr's bounded setMemory checks its bounds wrongly.
    byte[] chunk = new byte[Math.min(size, 1 << 16)];
    Arrays.fill(chunk, value);
    for (int off = 0; off < size; off += chunk.length) {
      aligned.put(off, chunk, 0, Math.min(chunk.length, size - off));
    }
  }

  public byte getByte(long offset) {
    return aligned.getByte(offset);
  }

  public void putByte(long offset, byte value) {
    aligned.putByte(offset, value);
  }
}

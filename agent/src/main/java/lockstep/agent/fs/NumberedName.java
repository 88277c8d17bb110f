package lockstep.agent.fs;

import java.nio.charset.StandardCharsets;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * File names made of a fixed prefix and a number ({@code prefix + index}, as a String would print
 * them), written into native memory for {@link Posix#openat(int, NumberedName, int, int, int,
 * String)}: the prefix once, then per call only the number's digits and the closing NUL. A String
 * name cost a concatenation and jnr-ffi's encoding and copy on every open, about 1.2 us of a 6.4 us
 * open on tmpfs (docs/performance.md). One thread's: the memory is rewritten by every call.
 */
public final class NumberedName {
  private static final int MAX_DIGITS = 10; // Integer.MAX_VALUE

  private final String prefix;
  private final int prefixLength;
  private final Pointer memory; // held: the view does not keep the allocation alive
  private final Pointer view;
  private final long address;
  private final byte[] digits = new byte[MAX_DIGITS];

  public NumberedName(String prefix) {
    byte[] bytes = prefix.getBytes(StandardCharsets.UTF_8);
    this.prefix = prefix;
    this.prefixLength = bytes.length;
    Runtime runtime = Runtime.getRuntime(Posix.get().libc());
    this.memory = Memory.allocateDirect(runtime, bytes.length + MAX_DIGITS + 1, true);
    this.memory.put(0, bytes, 0, bytes.length);
    this.address = memory.address();
    // Writes go through an unbounded view: every open of the measured path writes here.
    this.view = Pointer.wrap(runtime, address);
  }

  /** Writes the name numbered {@code index} (>= 0) and returns its address, until the next call. */
  long address(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("a file's number is >= 0: " + index);
    }
    int n = 0;
    int rest = index;
    do {
      digits[n++] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest != 0);
    for (int i = 0; i < n; i++) {
      view.putByte(prefixLength + i, digits[n - 1 - i]);
    }
    view.putByte(prefixLength + n, (byte) 0);
    return address;
  }

  /** The name numbered {@code index}, as a String: for errors and for the calls that take one. */
  public String name(int index) {
    return name(prefix, index);
  }

  /** The one format of a numbered name, for those that list or remove the files by name. */
  public static String name(String prefix, int index) {
    return prefix + index;
  }
}

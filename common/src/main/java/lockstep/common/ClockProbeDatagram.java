package lockstep.common;

import java.nio.ByteBuffer;

/**
 * The clock probe datagram both sides speak (agent.proto, DescribeResponse.clock_probe_port): 32
 * bytes each way, big-endian. Request: magic "LSC1", 4 zero bytes, a nonce, 16 zero bytes. Answer:
 * the same with the agent's wall clock (ns since the Unix epoch) when the probe arrived at {@link
 * #ARRIVED} and when the answer left at {@link #LEFT}.
 */
public final class ClockProbeDatagram {
  public static final int BYTES = 32;
  public static final int MAGIC = 0x4C534331; // "LSC1"
  public static final int NONCE = 8;
  public static final int ARRIVED = 16;
  public static final int LEFT = 24;

  private ClockProbeDatagram() {}

  /** Writes a request with {@code nonce} into {@code b} (at least {@link #BYTES} long). */
  public static void request(ByteBuffer b, long nonce) {
    b.putInt(0, MAGIC).putInt(4, 0).putLong(NONCE, nonce).putLong(ARRIVED, 0).putLong(LEFT, 0);
  }

  /** Whether {@code length} bytes of {@code b} are a probe or an answer of this format. */
  public static boolean matches(ByteBuffer b, int length) {
    return length == BYTES && b.getInt(0) == MAGIC;
  }
}

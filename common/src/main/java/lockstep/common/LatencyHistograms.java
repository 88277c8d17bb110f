package lockstep.common;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Latency histograms (ns, 3 significant digits) and their wire form. */
public final class LatencyHistograms {
  private LatencyHistograms() {}

  /** The longest latency a histogram from {@link #forRecording} holds without growing: 10 s. */
  public static final long PRESIZED_NANOS = 10_000_000_000L;

  /**
   * A histogram to record into inside a measured part, sized before it for latencies up to {@link
   * #PRESIZED_NANOS} (about 200 KB). One from {@link #create} grows as larger values arrive, and
   * HdrHistogram grows it by catching an ArrayIndexOutOfBoundsException in {@code recordValue}: an
   * exception, a new array and a copy, two or three times per lock-files worker inside a 60 ms
   * window on tmpfs. It still grows beyond that. Merge such histograms into one from {@link
   * #create} before sending them on: an encoded histogram decodes at its full size.
   */
  public static Histogram forRecording() {
    Histogram h = new Histogram(1, PRESIZED_NANOS, 3);
    h.setAutoResize(true);
    return h;
  }

  public static Histogram create() {
    Histogram h = new Histogram(3);
    h.setAutoResize(true);
    return h;
  }

  public static ByteString encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    return ByteString.copyFrom(buf.array(), 0, n);
  }

  public static Histogram decode(ByteString bytes) {
    if (bytes.isEmpty()) {
      return create();
    }
    try {
      Histogram h = Histogram.decodeFromCompressedByteBuffer(bytes.asReadOnlyByteBuffer(), 0);
      h.setAutoResize(true);
      return h;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("corrupt latency histogram", e);
    }
  }
}

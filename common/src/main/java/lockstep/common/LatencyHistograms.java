package lockstep.common;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Latency histograms (ns, 3 significant digits) and their wire form. */
public final class LatencyHistograms {
  private LatencyHistograms() {}

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

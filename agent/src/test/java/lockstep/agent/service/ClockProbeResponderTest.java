package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import lockstep.common.ClockProbeDatagram;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;

class ClockProbeResponderTest {

  @Test
  void answersAProbeWithItsNonceAndTheArrivalAndDepartureTimes() throws Exception {
    try (ClockProbeResponder responder = ClockProbeResponder.start("127.0.0.1", 0);
        DatagramSocket client = clientOf(responder, 5_000)) {
      long before = WallClock.nowNanos();
      ByteBuffer answer =
          exchange(client, probe(ClockProbeDatagram.MAGIC, 0x1234_5678_9abc_def0L, 32), 33);
      long after = WallClock.nowNanos();
      assertThat(answer.limit()).isEqualTo(32);
      assertThat(answer.getInt(0)).isEqualTo(ClockProbeDatagram.MAGIC);
      assertThat(answer.getLong(8)).isEqualTo(0x1234_5678_9abc_def0L);
      long arrived = answer.getLong(16);
      long left = answer.getLong(24);
      assertThat(arrived).isBetween(before, after);
      assertThat(left).isBetween(arrived, after);
    }
  }

  @Test
  void ignoresDatagramsOfAnotherSizeOrMagic() throws Exception {
    try (ClockProbeResponder responder = ClockProbeResponder.start("127.0.0.1", 0);
        DatagramSocket client = clientOf(responder, 300)) {
      assertThatThrownBy(() -> exchange(client, probe(0x4C534332, 1, 32), 33))
          .isInstanceOf(SocketTimeoutException.class);
      assertThatThrownBy(() -> exchange(client, probe(ClockProbeDatagram.MAGIC, 2, 64), 65))
          .isInstanceOf(SocketTimeoutException.class);
      assertThatThrownBy(() -> exchange(client, probe(ClockProbeDatagram.MAGIC, 3, 16), 33))
          .isInstanceOf(SocketTimeoutException.class);
      // and still answers a good one afterwards
      client.setSoTimeout(5_000);
      assertThat(exchange(client, probe(ClockProbeDatagram.MAGIC, 4, 32), 33).getLong(8))
          .isEqualTo(4);
    }
  }

  @Test
  void closingFreesThePort() throws Exception {
    ClockProbeResponder responder = ClockProbeResponder.start("127.0.0.1", 0);
    int port = responder.port();
    responder.close();
    try (DatagramSocket again = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
      assertThat(again.getLocalPort()).isEqualTo(port);
    }
  }

  /** A socket connected to the responder, waiting at most {@code timeoutMillis} for an answer. */
  private static DatagramSocket clientOf(ClockProbeResponder responder, int timeoutMillis)
      throws Exception {
    DatagramSocket client = new DatagramSocket();
    client.connect(InetAddress.getLoopbackAddress(), responder.port());
    client.setSoTimeout(timeoutMillis);
    return client;
  }

  private static byte[] probe(int magic, long nonce, int size) {
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putInt(0, magic);
    if (size >= 16) {
      b.putLong(8, nonce);
    }
    return b.array();
  }

  private static ByteBuffer exchange(DatagramSocket client, byte[] request, int receiveSize)
      throws Exception {
    client.send(new DatagramPacket(request, request.length));
    byte[] in = new byte[receiveSize];
    DatagramPacket p = new DatagramPacket(in, in.length);
    client.receive(p);
    return ByteBuffer.wrap(in, 0, p.getLength()).slice().limit(p.getLength());
  }
}

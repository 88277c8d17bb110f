package lockstep.coordinator.agent;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.common.ClockProbeDatagram;
import lockstep.common.WallClock;

/**
 * Probes an agent's clock with one UDP datagram each way ({@link ClockProbeDatagram}), on the
 * calling thread: no event loop or executor between reading the clock and the datagram leaving or
 * arriving. Not thread-safe; {@link GrpcAgent} probes one at a time.
 */
final class UdpClockProbe implements AutoCloseable {
  private static final Pattern HOST_PORT =
      Pattern.compile("^(?:dns:///)?\\[?([^\\[\\]]+?)\\]?:(\\d+)$");

  private final DatagramSocket socket;
  private final int port;
  private final byte[] buffer = new byte[ClockProbeDatagram.BYTES + 1];
  private final ByteBuffer bytes = ByteBuffer.wrap(buffer);

  private UdpClockProbe(DatagramSocket socket, int port) {
    this.socket = socket;
    this.port = port;
  }

  /** The UDP port probed. */
  int port() {
    return port;
  }

  /**
   * The UDP ports to probe an agent on, in order. An agent whose responder shares its gRPC port's
   * number ({@code advertised == listening}) is probed on the number the coordinator dialed, which
   * a port forward maps for TCP and UDP alike, and on the advertised one after it; an agent whose
   * responder has a number of its own (its gRPC port's was taken) is probed there first. Empty when
   * the agent offers no responder; only the advertised number for an agent that tells no listen
   * port (older versions) or an address without a port.
   */
  static List<Integer> portsToTry(String address, int advertised, int listening) {
    if (advertised <= 0 || advertised > 65535) {
      return List.of();
    }
    Matcher m = HOST_PORT.matcher(address);
    int dialed = m.matches() ? Integer.parseInt(m.group(2)) : 0;
    if (dialed <= 0 || dialed > 65535 || dialed == advertised || listening <= 0) {
      // an agent of a version that tells no listen port: its advertised number only, as before
      return List.of(advertised);
    }
    return advertised == listening ? List.of(dialed, advertised) : List.of(advertised, dialed);
  }

  /**
   * A probe of the agent at the host of {@code address} (host:port, [v6]:port or dns:///host:port)
   * and UDP {@code port}; empty when the address has no host to send to.
   */
  static Optional<UdpClockProbe> open(String address, int port) throws IOException {
    Matcher m = HOST_PORT.matcher(address);
    if (port <= 0 || port > 65535 || !m.matches()) {
      return Optional.empty();
    }
    DatagramSocket socket = new DatagramSocket();
    try {
      socket.connect(new InetSocketAddress(InetAddress.getByName(m.group(1)), port));
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
    return Optional.of(new UdpClockProbe(socket, port));
  }

  /** One probe; {@link SocketTimeoutException} when no answer to it came within {@code timeout}. */
  ClockSample probe(Duration timeout) throws IOException {
    long nonce = ThreadLocalRandom.current().nextLong();
    ClockProbeDatagram.request(bytes, nonce);
    DatagramPacket packet = new DatagramPacket(buffer, ClockProbeDatagram.BYTES);
    long deadline = System.nanoTime() + timeout.toNanos();
    socket.setSoTimeout(Math.max(1, (int) timeout.toMillis()));
    // monotonic first: a pause between the two reads then widens the round trip (and the
    // uncertainty) instead of making the answer look earlier than the agent's clock says it left
    long sent = System.nanoTime();
    long sentWall = WallClock.nowNanos();
    socket.send(packet);
    while (true) {
      packet.setLength(buffer.length);
      socket.receive(packet);
      long roundTrip = System.nanoTime() - sent;
      // A late answer to an earlier probe that timed out carries another nonce: not ours.
      if (ClockProbeDatagram.matches(bytes, packet.getLength())
          && bytes.getLong(ClockProbeDatagram.NONCE) == nonce) {
        return new ClockSample(
            sentWall,
            roundTrip,
            bytes.getLong(ClockProbeDatagram.ARRIVED),
            bytes.getLong(ClockProbeDatagram.LEFT));
      }
      long left = deadline - System.nanoTime();
      if (left <= 1_000_000) {
        throw new SocketTimeoutException("no answer within " + timeout.toMillis() + " ms");
      }
      socket.setSoTimeout((int) (left / 1_000_000));
    }
  }

  @Override
  public void close() {
    socket.close();
  }
}

package lockstep.agent.service;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import lockstep.common.ClockProbeDatagram;
import lockstep.common.WallClock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Answers clock probes over UDP ({@link ClockProbeDatagram}): one thread that does nothing else
 * reads the wall clock as soon as a probe arrives and again just before the answer leaves. A gRPC
 * probe crosses four thread hand-offs and HTTP/2 framing, milliseconds on a busy host, and the
 * offset estimate can be no better than half of that; a datagram answered here costs tens of
 * microseconds on loopback.
 *
 * <p>The answer is the same size as the probe and tells only the agent's wall clock, so the port is
 * no amplifier and no secret is exposed; it keeps no state.
 */
public final class ClockProbeResponder implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(ClockProbeResponder.class);

  private final DatagramSocket socket;
  private final Thread thread;

  private ClockProbeResponder(DatagramSocket socket) {
    this.socket = socket;
    this.thread = new Thread(this::serve, "clock-probe-responder");
    thread.setDaemon(true);
    thread.setPriority(Thread.MAX_PRIORITY);
  }

  /**
   * Binds UDP {@code port} on {@code host} (the agent's listen address; 0 = a port picked by the
   * OS) and starts answering.
   */
  public static ClockProbeResponder start(String host, int port) throws IOException {
    InetAddress address =
        host.isEmpty() || "0.0.0.0".equals(host) || "::".equals(host)
            ? new InetSocketAddress(0).getAddress()
            : InetAddress.getByName(host);
    ClockProbeResponder responder =
        new ClockProbeResponder(new DatagramSocket(new InetSocketAddress(address, port)));
    responder.thread.start();
    return responder;
  }

  public int port() {
    return socket.getLocalPort();
  }

  private void serve() {
    byte[] buffer = new byte[ClockProbeDatagram.BYTES + 1];
    DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
    ByteBuffer bytes = ByteBuffer.wrap(buffer);
    while (!socket.isClosed()) {
      try {
        packet.setLength(buffer.length);
        socket.receive(packet);
        long received = WallClock.nowNanos();
        if (!ClockProbeDatagram.matches(bytes, packet.getLength())) {
          continue;
        }
        bytes.putLong(ClockProbeDatagram.ARRIVED, received);
        bytes.putLong(ClockProbeDatagram.LEFT, WallClock.nowNanos());
        socket.send(packet);
      } catch (SocketException e) {
        if (!socket.isClosed()) {
          LOG.warn("clock probe responder stopped: {}", e.getMessage());
        }
        return;
      } catch (IOException e) {
        LOG.debug("clock probe not answered: {}", e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    socket.close();
    try {
      thread.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

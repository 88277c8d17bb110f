package lockstep.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A QEMU Machine Protocol client on a unix socket (a guest's or the storage daemon's): one command
 * at a time, each answer awaited within a bound; events are skipped.
 */
public final class Qmp implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path socket;
  private final SocketChannel channel;
  private final BufferedReader in;
  private final OutputStream out;
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "qmp-reader");
            t.setDaemon(true);
            return t;
          });

  private Qmp(Path socket, SocketChannel channel) {
    this.socket = socket;
    this.channel = channel;
    this.in =
        new BufferedReader(
            new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
    this.out = Channels.newOutputStream(channel);
  }

  /** Connects, reads the greeting and leaves capabilities negotiation mode. */
  public static Qmp connect(Path socket, Duration timeout) {
    SocketChannel ch;
    try {
      ch = SocketChannel.open(StandardProtocolFamily.UNIX);
      ch.connect(UnixDomainSocketAddress.of(socket));
    } catch (IOException e) {
      throw new LabException("QMP " + socket + ": cannot connect: " + e.getMessage());
    }
    Qmp q = new Qmp(socket, ch);
    try {
      JsonNode greeting = q.readLine(timeout);
      if (!greeting.has("QMP")) {
        throw new LabException("QMP " + socket + ": no greeting but " + greeting);
      }
      q.execute("qmp_capabilities", Map.of(), timeout);
      return q;
    } catch (RuntimeException e) {
      q.close();
      throw e;
    }
  }

  /** Runs one command; returns its "return" value, or throws with QMP's error description. */
  public JsonNode execute(String command, Map<String, ?> arguments, Duration timeout) {
    ObjectNode msg = JSON.createObjectNode().put("execute", command);
    if (!arguments.isEmpty()) {
      msg.set("arguments", JSON.valueToTree(arguments));
    }
    try {
      out.write((JSON.writeValueAsString(msg) + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      throw new LabException("QMP " + socket + ": " + command + ": " + e.getMessage());
    }
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      JsonNode r = readLine(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
      if (r.has("return")) {
        return r.get("return");
      }
      if (r.has("error")) {
        throw new LabException(
            "QMP " + command + ": " + r.get("error").path("desc").asText(r.toString()));
      }
      // an event: not the answer
    }
  }

  private JsonNode readLine(Duration timeout) {
    Future<String> line = reader.submit(in::readLine);
    try {
      String l = line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (l == null) {
        throw new LabException("QMP " + socket + ": closed by QEMU");
      }
      return JSON.readTree(l);
    } catch (TimeoutException e) {
      line.cancel(true);
      throw new LabException("QMP " + socket + ": no answer within " + timeout.toSeconds() + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LabException("QMP " + socket + ": interrupted");
    } catch (ExecutionException | IOException e) {
      throw new LabException("QMP " + socket + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    reader.shutdownNow();
    try {
      channel.close();
    } catch (IOException e) {
      // closing
    }
  }
}

package lockstep.testsupport;

import io.grpc.ManagedChannel;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * N members of a cluster in this JVM, started, addressed and torn down, for every test that needs
 * servers in one process (in the manner of jetcd's cluster extension and Ratis' MiniRaftCluster).
 * Members are named n1..nN, each with its own root directory BASE/nI, and reached in process (a
 * generated name) or over loopback TCP (127.0.0.1, port 0, read back once bound). What a member is
 * comes from a {@link MemberFactory}: the agent's tests have one that starts an agent.
 *
 * @param <T> what the factory starts (an agent server)
 */
public final class InProcessCluster<T> implements AutoCloseable {
  /** How the members are reached. */
  public enum Transport {
    /** gRPC's in-process transport: no socket, a generated name per member. */
    IN_PROCESS,
    /** Netty on 127.0.0.1, port 0. */
    LOOPBACK
  }

  /** Starts one member on {@code builder} and returns it started. */
  @FunctionalInterface
  public interface MemberFactory<T> {
    /**
     * @param listenHost the host the member listens on (127.0.0.1 for loopback, "in-process")
     */
    Started<T> start(ServerBuilder<?> builder, String name, Path root, String listenHost)
        throws Exception;
  }

  /** A started member: the server, its bound port (0 in process), how to stop it. */
  public record Started<T>(T server, IntSupplier port, Runnable stop) {}

  /**
   * One member: its name, root, address ("127.0.0.1:PORT" over loopback, "in-process:NAME" in
   * process) and server; a channel to it on demand.
   */
  public record Member<T>(
      String name, Path root, String address, T server, ManagedChannel channel) {
    /**
     * A plaintext channel to the member, closed with the cluster (none for a member started with
     * credentials: connect to {@link #address} with the client's own).
     */
    @Override
    public ManagedChannel channel() {
      if (channel == null) {
        throw new IllegalStateException(
            name + " has credentials of its own: connect to " + address + " yourself");
      }
      return channel;
    }
  }

  private final List<Member<T>> members = new ArrayList<>();
  private final List<Runnable> stops = new ArrayList<>();

  private InProcessCluster() {}

  public static <T> Builder<T> of(MemberFactory<T> factory) {
    return new Builder<>(factory);
  }

  public List<Member<T>> members() {
    return List.copyOf(members);
  }

  public Member<T> member(int index) {
    return members.get(index);
  }

  public int size() {
    return members.size();
  }

  /** Channels closed, then members stopped, last started first. */
  @Override
  public void close() {
    for (Member<T> m : members) {
      if (m.channel != null) {
        m.channel.shutdownNow();
        try {
          m.channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    for (int i = stops.size() - 1; i >= 0; i--) {
      stops.get(i).run();
    }
    members.clear();
    stops.clear();
  }

  /** What to start: how many members, where their roots are, how they are reached. */
  public static final class Builder<T> {
    private final MemberFactory<T> factory;
    private int count = 1;
    private Path base;
    private Transport transport = Transport.IN_PROCESS;
    private ServerCredentials credentials;
    private boolean direct;
    private Executor serverExecutor;

    private Builder(MemberFactory<T> factory) {
      this.factory = factory;
    }

    public Builder<T> members(int n) {
      this.count = n;
      return this;
    }

    /** Roots are BASE/n1 .. BASE/nN (made if missing, real paths). */
    public Builder<T> under(Path base) {
      this.base = base;
      return this;
    }

    public Builder<T> transport(Transport t) {
      this.transport = t;
      return this;
    }

    /**
     * In process, calls run on the calling thread on both sides (gRPC's direct executor): a test
     * sees a call's effects as soon as it returns.
     */
    public Builder<T> directExecutor() {
      this.direct = true;
      return this;
    }

    /**
     * In process, every member's server runs its calls on {@code executor} instead of gRPC's
     * default cached pool, which wakes a thread of its own for each call: many members simulated in
     * one JVM then share a few busy threads, as each real agent has its own process.
     */
    public Builder<T> serverExecutor(Executor executor) {
      this.serverExecutor = executor;
      return this;
    }

    /**
     * Loopback with these server credentials (TLS, or insecure ones); the members then have no
     * channel of the cluster's: a test connects with its client's own credentials.
     */
    public Builder<T> credentials(ServerCredentials c) {
      this.credentials = c;
      this.transport = Transport.LOOPBACK;
      return this;
    }

    public InProcessCluster<T> start() throws IOException {
      if (base == null) {
        throw new IllegalStateException("a cluster needs a base directory for its roots: under()");
      }
      InProcessCluster<T> cluster = new InProcessCluster<>();
      try {
        for (int i = 1; i <= count; i++) {
          cluster.add(this, "n" + i, Files.createDirectories(base.resolve("n" + i)).toRealPath());
        }
      } catch (Exception | Error e) {
        cluster.close();
        throw e instanceof IOException io ? io : new IOException("starting the cluster: " + e, e);
      }
      return cluster;
    }
  }

  private void add(Builder<T> b, String name, Path root) throws Exception {
    if (b.transport == Transport.IN_PROCESS) {
      String channelName = InProcessServerBuilder.generateName();
      InProcessServerBuilder server = InProcessServerBuilder.forName(channelName);
      InProcessChannelBuilder channel = InProcessChannelBuilder.forName(channelName);
      if (b.direct) {
        server.directExecutor();
        channel.directExecutor();
      } else if (b.serverExecutor != null) {
        server.executor(b.serverExecutor);
      }
      Started<T> s = b.factory.start(server, name, root, "in-process");
      stops.add(s.stop());
      members.add(
          new Member<>(name, root, "in-process:" + channelName, s.server(), channel.build()));
      return;
    }
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    NettyServerBuilder builder =
        b.credentials == null
            ? NettyServerBuilder.forAddress(any)
            : NettyServerBuilder.forAddress(any, b.credentials);
    Started<T> s = b.factory.start(builder, name, root, "127.0.0.1");
    stops.add(s.stop());
    String address = "127.0.0.1:" + s.port().getAsInt();
    members.add(
        new Member<>(
            name,
            root,
            address,
            s.server(),
            b.credentials == null
                ? NettyChannelBuilder.forTarget(address).usePlaintext().build()
                : null));
  }
}

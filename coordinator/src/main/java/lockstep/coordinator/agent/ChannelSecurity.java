package lockstep.coordinator.agent;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import lockstep.common.AgentHeaders;

/**
 * How the coordinator reaches agents: TLS with the CA that signed the agent certificates and, for
 * mTLS, its own certificate and key (PEM files); a shared bearer token as call credentials; and
 * always its owner id (one per user, see {@link OwnerIds}) so that, where nothing stronger
 * identifies it, its runs are still its own. (The token goes in a client interceptor, as the owner
 * id does: call credentials would add nothing here.)
 *
 * @param token the shared token, or null
 * @param owner the owner id sent as {@code lockstep-owner}
 */
public record ChannelSecurity(Path tlsCa, Path tlsCert, Path tlsKey, String token, String owner) {
  /**
   * This coordinator's owner id, sent with every call: the user's, kept across processes ({@link
   * OwnerIds}).
   */
  public static final String OWNER_ID = OwnerIds.forUser();

  public static final ChannelSecurity NONE = of(null, null, null, null);

  /** With this process's owner id. */
  public static ChannelSecurity of(Path tlsCa, Path tlsCert, Path tlsKey, String token) {
    return new ChannelSecurity(tlsCa, tlsCert, tlsKey, token, OWNER_ID);
  }

  public boolean tls() {
    return tlsCa != null;
  }

  ChannelCredentials credentials() {
    if (!tls()) {
      return InsecureChannelCredentials.create();
    }
    try {
      TlsChannelCredentials.Builder b =
          TlsChannelCredentials.newBuilder().trustManager(tlsCa.toFile());
      if (tlsCert != null) {
        b.keyManager(tlsCert.toFile(), tlsKey.toFile());
      }
      return b.build();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "TLS files " + tlsCa + ", " + tlsCert + ", " + tlsKey + ": " + e.getMessage(), e);
    }
  }

  /** A channel to {@code target} (host:port or dns:///name:port) with these credentials. */
  public ManagedChannel open(String target) {
    // gRPC keepalive pings notice a frozen agent or a dead link even when no call is waiting
    return NettyChannelBuilder.forTarget(target, credentials())
        .keepAliveTime(GrpcAgent.KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
        .keepAliveTimeout(GrpcAgent.KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .keepAliveWithoutCalls(true)
        .maxInboundMessageSize(MessageLimit.bytes())
        .build();
  }

  /** {@code channel} with the owner id and the token added to every call. */
  public Channel decorate(Channel channel) {
    return ClientInterceptors.intercept(channel, new Headers(owner(), token));
  }

  private record Headers(String owner, String token) implements ClientInterceptor {
    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
        MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          headers.put(AgentHeaders.OWNER, owner);
          if (token != null) {
            headers.put(AgentHeaders.AUTHORIZATION, "Bearer " + token);
          }
          super.start(listener, headers);
        }
      };
    }
  }
}

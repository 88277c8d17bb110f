package lockstep.agent.service;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.SocketAddress;

/** Puts the caller's address (from the call's transport attributes) into the gRPC context. */
final class PeerAddress implements ServerInterceptor {
  static final Context.Key<String> KEY = Context.key("lockstep-peer");

  /** The current call's peer, or "unknown peer". */
  static String current() {
    String p = KEY.get();
    return p == null ? "unknown peer" : p;
  }

  /** The address a transport's peer is known by, as {@link #current} gives it. */
  static String of(Attributes transport) {
    SocketAddress remote = transport.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    return remote == null ? "unknown peer" : remote.toString().replaceFirst("^/", "");
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String peer = of(call.getAttributes());
    return Contexts.interceptCall(Context.current().withValue(KEY, peer), call, headers, next);
  }
}

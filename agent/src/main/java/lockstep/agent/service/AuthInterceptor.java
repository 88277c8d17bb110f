package lockstep.agent.service;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import lockstep.agent.security.CallerIdentity;
import lockstep.common.AgentHeaders;

/**
 * Checks the bearer token (when the agent has one) in constant time and names the caller for run
 * ownership ({@link CallerIdentity}): certificate subject over TLS, else the token's identity, else
 * the coordinator's owner id header. A call without the right token ends UNAUTHENTICATED before the
 * service sees it.
 */
final class AuthInterceptor implements ServerInterceptor {
  private static final Context.Key<String> CALLER = Context.key("lockstep-caller");
  private static final String BEARER = "Bearer ";

  private final byte[] token;
  private final String tokenIdentity;

  /**
   * @param token the shared token, or null when the agent takes none
   */
  AuthInterceptor(String token) {
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.tokenIdentity = token == null ? null : CallerIdentity.ofToken(this.token);
  }

  /** The caller of the current call ("cert:CN=...", "token:...", "owner:..." or "anonymous"). */
  static String caller() {
    String id = CALLER.get();
    return id == null ? CallerIdentity.ANONYMOUS : id;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (token != null && !tokenMatches(headers.get(AgentHeaders.AUTHORIZATION))) {
      call.close(
          Status.UNAUTHENTICATED.withDescription(
              "missing or wrong bearer token (the agent was started with a token: give the"
                  + " coordinator --token-file)"),
          new Metadata());
      return new ServerCall.Listener<>() {};
    }
    String identity = identity(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION), headers);
    return Contexts.interceptCall(
        Context.current().withValue(CALLER, identity), call, headers, next);
  }

  private boolean tokenMatches(String header) {
    if (header == null || !header.startsWith(BEARER)) {
      return false;
    }
    // MessageDigest.isEqual takes time independent of where the first difference is.
    return MessageDigest.isEqual(
        token, header.substring(BEARER.length()).getBytes(StandardCharsets.UTF_8));
  }

  private String identity(SSLSession session, Metadata headers) {
    if (session != null) {
      try {
        Certificate[] peer = session.getPeerCertificates();
        if (peer.length > 0 && peer[0] instanceof X509Certificate x) {
          return CallerIdentity.ofCertificate(x.getSubjectX500Principal().getName());
        }
      } catch (SSLPeerUnverifiedException e) {
        // server-only TLS: fall through to the token or owner id
      }
    }
    if (tokenIdentity != null) {
      return tokenIdentity;
    }
    return CallerIdentity.ofOwnerId(headers.get(AgentHeaders.OWNER));
  }
}

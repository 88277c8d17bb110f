package lockstep.agent.security;

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
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import lockstep.common.AgentHeaders;

/**
 * Checks the bearer token (when the agent has one) in constant time and names the caller for run
 * ownership: certificate subject over TLS, else the token's identity, else the coordinator's owner
 * id header. A call without the right token ends UNAUTHENTICATED before the service sees it.
 */
public final class AuthInterceptor implements ServerInterceptor {
  private static final String BEARER = "Bearer ";
  private static final int MAX_OWNER = 64;

  private final byte[] token;
  private final String tokenIdentity;

  /**
   * @param token the shared token, or null when the agent takes none
   */
  public AuthInterceptor(String token) {
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.tokenIdentity = token == null ? null : "token:" + fingerprint(this.token);
  }

  static String fingerprint(byte[] secret) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(secret))
          .substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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
        Context.current().withValue(CallerIdentity.KEY, identity), call, headers, next);
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
          return "cert:" + x.getSubjectX500Principal().getName();
        }
      } catch (SSLPeerUnverifiedException e) {
        // server-only TLS: fall through to the token or owner id
      }
    }
    if (tokenIdentity != null) {
      return tokenIdentity;
    }
    String owner = headers.get(AgentHeaders.OWNER);
    if (owner == null || owner.isEmpty()) {
      return CallerIdentity.ANONYMOUS;
    }
    return CallerIdentity.OWNER_PREFIX
        + (owner.length() > MAX_OWNER ? owner.substring(0, MAX_OWNER) : owner);
  }
}

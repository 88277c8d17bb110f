package lockstep.agent.security;

import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.nio.file.Path;

/**
 * How an agent authenticates coordinators: mTLS (its certificate and key, the CA that signs
 * coordinator certificates; PEM files), a shared token, both, or neither (then it listens on
 * loopback only, unless started with --insecure).
 *
 * @param token the shared bearer token, or null
 */
public record AgentSecurity(
    Path tlsCert, Path tlsKey, Path tlsClientCa, String token, boolean insecure) {
  public static final AgentSecurity NONE = new AgentSecurity(null, null, null, null, false);

  public boolean tls() {
    return tlsCert != null;
  }

  /** True when something authenticates callers (client certificates or a token). */
  public boolean authenticates() {
    return tlsClientCa != null || token != null;
  }

  /** TLS credentials requiring a client certificate signed by the client CA, or plaintext. */
  public ServerCredentials credentials() throws IOException {
    if (!tls()) {
      return InsecureServerCredentials.create();
    }
    TlsServerCredentials.Builder b =
        TlsServerCredentials.newBuilder().keyManager(tlsCert.toFile(), tlsKey.toFile());
    if (tlsClientCa != null) {
      b.trustManager(tlsClientCa.toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return b.build();
  }

  public AuthInterceptor interceptor() {
    return new AuthInterceptor(token);
  }

  /** One line for the start-up banner: "mTLS", "TLS + token", "token", "plaintext". */
  public String describe() {
    if (tls()) {
      return (tlsClientCa != null ? "mTLS" : "TLS") + (token != null ? " + token" : "");
    }
    return token != null ? "token (plaintext)" : "plaintext, unauthenticated";
  }
}

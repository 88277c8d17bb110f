package lockstep.agent.security;

import java.nio.file.Path;

/**
 * How an agent authenticates coordinators: mTLS (its certificate and key, the CA that signs
 * coordinator certificates; PEM files), a shared token, both, or neither (then it listens on
 * loopback only, unless started with --insecure). The gRPC server's credentials and interceptor are
 * made from it by the service ({@code AgentCredentials}, {@code AuthInterceptor}).
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

  /** One line for the start-up banner: "mTLS", "TLS + token", "token", "plaintext". */
  public String describe() {
    if (tls()) {
      return (tlsClientCa != null ? "mTLS" : "TLS") + (token != null ? " + token" : "");
    }
    return token != null ? "token (plaintext)" : "plaintext, unauthenticated";
  }
}

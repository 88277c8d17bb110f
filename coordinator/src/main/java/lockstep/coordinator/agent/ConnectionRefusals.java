package lockstep.coordinator.agent;

import io.grpc.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

/**
 * Why an agent refused this coordinator, in one sentence that names the flag that fixes it: gRPC
 * reports a refused handshake as UNAVAILABLE ("ssl exception", "Network closed for unknown
 * reason"), which reads as if the agent were down. Judged from the status, its cause (the TLS
 * exception and its alert) and what this coordinator offered ({@link ChannelSecurity}); only for a
 * plaintext connection the agent closed does it ask the agent once more, with one TLS handshake
 * that sends no data, whether it speaks TLS.
 */
final class ConnectionRefusals {
  /** How long the TLS question may take (it is asked only on a failure). */
  static final int PROBE_TIMEOUT_MILLIS = 2_000;

  private static final String TLS_FLAGS =
      "pass --tls-ca CA.pem --tls-cert CERT.pem --tls-key KEY.pem (from `lockstep certs`;"
          + " or the inventory's security: section)";

  private ConnectionRefusals() {}

  /**
   * The refusal explained, or empty when {@code status} is not a refusal this class knows (the
   * caller keeps its usual text).
   *
   * @param security what this coordinator offered, or null when unknown (a channel of a test)
   */
  static Optional<String> explain(String address, ChannelSecurity security, Status status) {
    if (security == null) {
      return Optional.empty();
    }
    return switch (status.getCode()) {
      case UNAUTHENTICATED -> Optional.of(token(address, security));
      case UNAVAILABLE ->
          security.tls()
              ? Optional.ofNullable(tls(address, security, status))
              : Optional.ofNullable(plaintext(address, status));
      default -> Optional.empty();
    };
  }

  private static String token(String address, ChannelSecurity security) {
    if (security.token() == null) {
      return "agent "
          + address
          + " requires a bearer token: pass --token-file FILE with the agent's token (or set"
          + " LOCKSTEP_TOKEN, or security: {token-file: ...} in the inventory)";
    }
    return "agent "
        + address
        + " refused the bearer token this coordinator sent (from --token-file, LOCKSTEP_TOKEN or"
        + " the inventory): it is not the agent's; pass --token-file with the file the agent was"
        + " started with";
  }

  /** A plaintext channel closed by the agent: does it speak TLS? */
  private static String plaintext(String address, Status status) {
    if (!isNetworkClosed(status) && find(status.getCause(), SSLException.class) == null) {
      return null;
    }
    Optional<InetSocketAddress> at = hostPort(address);
    if (at.isEmpty() || !speaksTls(at.get())) {
      return null;
    }
    return "agent "
        + address
        + " requires TLS and this coordinator connected in plaintext: "
        + TLS_FLAGS;
  }

  private static String tls(String address, ChannelSecurity security, Status status) {
    Throwable cause = status.getCause();
    if (hasClassNamed(cause, "NotSslRecordException")) {
      return "agent "
          + address
          + " does not speak TLS (it was started without --tls-cert) and this coordinator asked"
          + " for TLS: drop --tls-ca/--tls-cert/--tls-key (and the inventory's security: TLS"
          + " files) for this agent, or start the agent with --tls-cert, --tls-key and"
          + " --tls-client-ca";
    }
    if (find(cause, CertPathValidatorException.class) != null
        || containsText(cause, "PKIX path building failed")
        || containsText(cause, "unable to find valid certification path")) {
      return "agent "
          + address
          + "'s certificate is not signed by the CA in --tls-ca "
          + security.tlsCa()
          + ": pass --tls-ca with the ca.pem of the CA that issued the agents' certificates"
          + " (`lockstep certs --out DIR` wrote it as DIR/ca.pem)";
    }
    String hostname = textOf(cause, "No subject alternative", "No name matching");
    if (hostname != null) {
      return "agent "
          + address
          + "'s certificate does not name the host dialled ("
          + hostname
          + "): dial the agent by a name or address in its certificate (the node's name or"
          + " address in the inventory given to `lockstep certs`), or issue it again with that"
          + " name";
    }
    if (containsText(cause, "certificate_expired") || containsText(cause, "NotAfter")) {
      return "agent "
          + address
          + ": TLS handshake refused: a certificate has expired ("
          + deepest(cause)
          + "); issue new ones with `lockstep certs`";
    }
    if (containsText(cause, "bad_certificate")
        || containsText(cause, "certificate_required")
        || containsText(cause, "certificate_unknown")) {
      if (security.tlsCert() == null) {
        return "agent "
            + address
            + " requires a client certificate (mTLS) and this coordinator sent none: pass"
            + " --tls-cert CERT.pem --tls-key KEY.pem (a coordinator certificate from `lockstep"
            + " certs`, signed by the CA the agent trusts with --tls-client-ca)";
      }
      return "agent "
          + address
          + " refused this coordinator's certificate (--tls-cert "
          + security.tlsCert()
          + "): it is not signed by the CA the agent trusts (its --tls-client-ca); pass a"
          + " certificate from that CA (`lockstep certs --add-coordinator NAME --out DIR` with the"
          + " agents' CA in DIR)";
    }
    if (find(cause, SSLException.class) != null) {
      return "agent "
          + address
          + ": TLS handshake failed ("
          + deepest(cause)
          + "); check --tls-ca, --tls-cert and --tls-key against the agent's --tls-cert and"
          + " --tls-client-ca";
    }
    return null;
  }

  private static boolean isNetworkClosed(Status status) {
    String d = status.getDescription();
    return d != null && d.toLowerCase(Locale.ROOT).contains("network closed");
  }

  /** host:port or [v6]:port; empty for gRPC target URIs (dns:///...). */
  static Optional<InetSocketAddress> hostPort(String address) {
    if (address.contains("/")) {
      return Optional.empty();
    }
    int colon = address.lastIndexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return Optional.of(
          new InetSocketAddress(host, Integer.parseInt(address.substring(colon + 1))));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * True when the server at {@code at} answers a TLS ClientHello with a TLS handshake (it sent a
   * certificate, whether trusted or not). The JDK's default trust is used, so the handshake
   * normally fails on the agent's private CA: that failure is the answer; nothing is sent after it.
   */
  static boolean speaksTls(InetSocketAddress at) {
    try (Socket raw = new Socket()) {
      raw.connect(at, PROBE_TIMEOUT_MILLIS);
      raw.setSoTimeout(PROBE_TIMEOUT_MILLIS);
      SSLContext ctx = SSLContext.getDefault();
      try (SSLSocket s =
          (SSLSocket)
              ctx.getSocketFactory().createSocket(raw, at.getHostString(), at.getPort(), false)) {
        s.startHandshake();
        return true;
      }
    } catch (SSLHandshakeException e) {
      // a certificate arrived and was judged (untrusted, expired...): the server speaks TLS
      return find(e, CertificateException.class) != null
          || containsText(e, "PKIX")
          || containsText(e, "certificate")
          || containsText(e, "alert");
    } catch (IOException | NoSuchAlgorithmException e) {
      return false;
    }
  }

  private static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (int i = 0; t != null && i < 20; t = t.getCause(), i++) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static boolean hasClassNamed(Throwable t, String simpleName) {
    for (int i = 0; t != null && i < 20; t = t.getCause(), i++) {
      if (t.getClass().getSimpleName().equals(simpleName)) {
        return true;
      }
    }
    return false;
  }

  private static boolean containsText(Throwable t, String text) {
    return textOf(t, text) != null;
  }

  /** The first message in the cause chain containing one of {@code texts}. */
  private static String textOf(Throwable t, String... texts) {
    for (int i = 0; t != null && i < 20; t = t.getCause(), i++) {
      String m = t.getMessage();
      if (m != null) {
        for (String text : texts) {
          if (m.contains(text)) {
            return m.lines().findFirst().orElse(m).strip();
          }
        }
      }
    }
    return null;
  }

  private static String deepest(Throwable t) {
    String last = null;
    for (int i = 0; t != null && i < 20; t = t.getCause(), i++) {
      if (t.getMessage() != null) {
        last = t.getMessage().lines().findFirst().orElse("").strip();
      }
    }
    return last;
  }
}

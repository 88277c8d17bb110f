package lockstep.agent.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Who is calling, as one string: the coordinator certificate's subject (mTLS), else the shared
 * token's identity, else (loopback or --insecure) the random owner id each coordinator sends, else
 * anonymous. The service names each call's caller so; runs are owned by it.
 */
public final class CallerIdentity {
  public static final String ANONYMOUS = "anonymous";
  private static final String OWNER_PREFIX = "owner:";
  private static final int MAX_OWNER = 64;

  private CallerIdentity() {}

  /** A caller known by its certificate's subject (an X.500 name). */
  public static String ofCertificate(String subject) {
    return "cert:" + subject;
  }

  /** Every caller that holds the agent's token, known by the token's fingerprint. */
  public static String ofToken(byte[] token) {
    return "token:" + fingerprint(token);
  }

  /** A coordinator known by the owner id it sends (cut to 64 characters); none is anonymous. */
  public static String ofOwnerId(String ownerId) {
    if (ownerId == null || ownerId.isEmpty()) {
      return ANONYMOUS;
    }
    return OWNER_PREFIX
        + (ownerId.length() > MAX_OWNER ? ownerId.substring(0, MAX_OWNER) : ownerId);
  }

  /**
   * An identity as it may be shown to other callers: an owner id is a bearer secret on loopback
   * (whoever sends it owns its runs), so it is shown as "owner:" + a fingerprint.
   */
  public static String shown(String identity) {
    if (identity.startsWith(OWNER_PREFIX)) {
      return OWNER_PREFIX
          + fingerprint(identity.substring(OWNER_PREFIX.length()).getBytes(StandardCharsets.UTF_8));
    }
    return identity;
  }

  /** The first 12 hex digits of the secret's SHA-256: names a secret without telling it. */
  static String fingerprint(byte[] secret) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(secret))
          .substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

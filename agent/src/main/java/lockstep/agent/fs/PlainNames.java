package lockstep.agent.fs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A name (run id, node name) as one safe file name component: itself when plain, else a digest of
 * it.
 */
public final class PlainNames {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}");

  private PlainNames() {}

  /**
   * {@code name} when it is letters, digits, '.', '_' and '-' (not first '.'), at most 200; else
   * "x" and 16 hex digits of its SHA-256.
   */
  public static String of(String name) {
    if (SAFE.matcher(name).matches()) {
      return name;
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return "x" + HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

package lockstep.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a process presents to its peer, agent or coordinator alike: a TLS certificate and its key
 * ({@code --tls-cert}, {@code --tls-key}) and a bearer token ({@code --token-file}, else
 * LOCKSTEP_TOKEN), with the rules both ends hold them to. Each refusal is a {@link
 * CredentialsException} naming the option.
 */
public record Credentials(Path tlsCert, Path tlsKey, Path tokenFile) {
  /** The shortest token either end accepts. */
  public static final int MIN_TOKEN = 16;

  public static final Credentials NONE = new Credentials(null, null, null);

  /** A refused credential: one line naming the option. */
  public static final class CredentialsException extends IllegalArgumentException {
    CredentialsException(String message) {
      super(message);
    }
  }

  /** Each of these that is not given here, taken from {@code fallback} (an inventory's). */
  public Credentials orElse(Credentials fallback) {
    return new Credentials(
        tlsCert != null ? tlsCert : fallback.tlsCert,
        tlsKey != null ? tlsKey : fallback.tlsKey,
        tokenFile != null ? tokenFile : fallback.tokenFile);
  }

  /** The certificate and key go together, and every file given is readable. */
  public void check() {
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new CredentialsException("--tls-cert and --tls-key go together (give both or neither)");
    }
    readable("--tls-cert", tlsCert);
    readable("--tls-key", tlsKey);
    readable("--token-file", tokenFile);
  }

  /** Refuses {@code file} (named by {@code option}) unless it is null or a readable file. */
  public static void readable(String option, Path file) {
    if (file != null && !Files.isReadable(file)) {
      throw new CredentialsException(option + ": " + file + " is not a readable file");
    }
  }

  /**
   * The token: the token file's text, else {@code fromEnv} (LOCKSTEP_TOKEN), stripped; null when
   * neither is given. Refused when shorter than {@link #MIN_TOKEN} or not printable ASCII.
   */
  public String token(String fromEnv) {
    String t;
    String where;
    if (tokenFile != null) {
      try {
        t = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw new CredentialsException("--token-file: " + tokenFile + ": " + e.getMessage());
      }
      where = "--token-file " + tokenFile;
    } else if (fromEnv != null && !fromEnv.isBlank()) {
      t = fromEnv.strip();
      where = "LOCKSTEP_TOKEN";
    } else {
      return null;
    }
    if (t.length() < MIN_TOKEN) {
      throw new CredentialsException(
          where
              + ": the token has "
              + t.length()
              + " characters; use at least "
              + MIN_TOKEN
              + " (e.g. openssl rand -hex 32)");
    }
    if (!t.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new CredentialsException(where + ": the token must be printable ASCII without spaces");
    }
    return t;
  }
}

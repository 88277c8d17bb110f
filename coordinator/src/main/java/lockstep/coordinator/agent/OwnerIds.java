package lockstep.coordinator.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The owner id a coordinator sends where nothing stronger (certificate, token) names it: 128 random
 * bits made once per user and kept in {@code ~/.lockstep/owner-id} (or {@code
 * $LOCKSTEP_HOME/owner-id}), mode 0600. A later process of the same user, such as {@code lockstep
 * collect} after a coordinator was killed, therefore owns that coordinator's runs; another user on
 * the host (another home) does not.
 */
public final class OwnerIds {
  static final String FILE = "owner-id";
  private static final Pattern VALID = Pattern.compile("[0-9a-f]{32}");
  private static final Logger LOG = LogManager.getLogger(OwnerIds.class);

  private OwnerIds() {}

  /** The directory of the owner id: $LOCKSTEP_HOME, else ~/.lockstep. */
  public static Path home() {
    String env = System.getenv("LOCKSTEP_HOME");
    return env != null && !env.isBlank()
        ? Path.of(env)
        : Path.of(System.getProperty("user.home"), ".lockstep");
  }

  /**
   * The user's owner id; a random one for this process alone (logged) when the file cannot be read
   * or made.
   */
  static String forUser() {
    try {
      return load(home());
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "owner id: {} ({}); this process uses an id of its own, so `lockstep collect` from"
              + " another process cannot fetch its runs' results",
          home().resolve(FILE),
          e.getMessage());
      return random();
    }
  }

  /**
   * Reads {@code dir/owner-id}, making it first (atomically: two processes agree) when it is not
   * there.
   */
  static String load(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      Files.createDirectories(dir);
      Path tmp =
          Files.createTempFile(
              dir,
              FILE,
              ".tmp",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try {
        Files.writeString(tmp, random() + "\n", StandardCharsets.US_ASCII);
        Files.createLink(
            file, tmp); // fails if another process made it meanwhile: then that one counts
      } catch (FileAlreadyExistsException e) {
        LOG.debug("owner id made by another process meanwhile");
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    String id = Files.readString(file, StandardCharsets.US_ASCII).strip();
    if (!VALID.matcher(id).matches()) {
      throw new IllegalStateException(
          "not 32 lower-case hex digits (delete the file to make a new id)");
    }
    return id;
  }

  static String random() {
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}

package lockstep.coordinator.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import lockstep.coordinator.scenario.ScenarioException;

/** A file's SHA-256: the content-addressed names of what launch copies to nodes. */
final class FileDigest {
  private FileDigest() {}

  /** Hex SHA-256 of {@code file}; an unreadable file is an error naming {@code option}. */
  static String sha256(Path file, String option) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (IOException e) {
      throw new ScenarioException(option + ": cannot read " + file + ": " + e.getMessage());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

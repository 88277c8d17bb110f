package lockstep.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files a test lays out under a temporary directory, such as a fake /proc and /sys tree. */
public final class TestFiles {
  private TestFiles() {}

  /** Writes {@code text} to {@code base/relative}, making the directories on the way. */
  public static Path write(Path base, String relative, String text) throws IOException {
    Path p = base.resolve(relative);
    Files.createDirectories(p.getParent());
    return Files.writeString(p, text);
  }
}

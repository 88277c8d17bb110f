package lockstep.agent.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A directory of its own on tmpfs ({@code /dev/shm}), for work that must not touch the measured
 * file system (a warm-up); removed with everything in it on close.
 */
public final class ScratchDir implements AutoCloseable {
  public static final Path TMPFS = Path.of("/dev/shm");

  private final Path path;
  private final Dir dir;

  private ScratchDir(Path path, Dir dir) {
    this.path = path;
    this.dir = dir;
  }

  /** A fresh directory (mode 0700) named {@code name-RANDOM} on tmpfs; null when there is none. */
  public static ScratchDir onTmpfs(String name) {
    Path made = null;
    try {
      if (!Files.isDirectory(TMPFS) || !"tmpfs".equals(Files.getFileStore(TMPFS).type())) {
        return null;
      }
      made = Files.createTempDirectory(TMPFS, name + "-");
      try (RootDir root = RootDir.open(made)) {
        return new ScratchDir(made, root.dir(null));
      }
    } catch (IOException | PosixException | SecurityException e) {
      if (made != null) {
        removeQuietly(made);
      }
      return null;
    }
  }

  public Path path() {
    return path;
  }

  public Dir dir() {
    return dir;
  }

  @Override
  public void close() {
    dir.close();
    removeQuietly(path);
  }

  private static void removeQuietly(Path p) {
    try (Stream<Path> all = Files.walk(p)) {
      all.sorted(Comparator.reverseOrder()).forEach(ScratchDir::deleteQuietly);
    } catch (IOException e) {
      // a scratch directory on tmpfs left behind is gone at the next boot
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // as above
    }
  }
}

package lockstep.agent.fs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A directory of its own on tmpfs ({@code /dev/shm}), for work that must not touch the measured
 * file system (a warm-up); removed with everything in it on close. Its name carries the pid of the
 * process that made it, so that the directories of a process killed before it closed them (they
 * hold memory until the next boot) are found and removed by {@link #removeOrphans}.
 */
public record ScratchDir(Path path, Dir dir) implements AutoCloseable {
  public static final Path TMPFS = Path.of("/dev/shm");

  /** NAME-PID-RANDOM, as {@link #onTmpfs} names them (the random part is an unsigned long). */
  private static final Pattern NAMED = Pattern.compile("lockstep-.+-(\\d+)-\\d+");

  /**
   * A fresh directory (mode 0700) named {@code name-PID-RANDOM} on tmpfs; null when there is none.
   * {@code name} starts with "lockstep-".
   */
  public static ScratchDir onTmpfs(String name) {
    Path made = null;
    try {
      if (!Files.isDirectory(TMPFS) || !"tmpfs".equals(Files.getFileStore(TMPFS).type())) {
        return null;
      }
      made = Files.createTempDirectory(TMPFS, name + "-" + ProcessHandle.current().pid() + "-");
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

  /**
   * Removes the scratch directories in {@code tmpfs} whose process is gone (killed before it closed
   * them); returns their names. Directories of live processes, and names of other forms, stay.
   */
  public static List<String> removeOrphans(Path tmpfs) {
    List<String> removed = new ArrayList<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(tmpfs)) {
      for (Path p : all) {
        Matcher m = NAMED.matcher(p.getFileName().toString());
        if (m.matches()
            && m.group(1).length() < 19 // a pid fits a long; longer digits are no name of ours
            && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
            && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
          removeQuietly(p);
          if (Files.notExists(p, LinkOption.NOFOLLOW_LINKS)) {
            removed.add(p.getFileName().toString());
          }
        }
      }
    } catch (IOException | SecurityException e) {
      // no tmpfs, or one this process may not list: nothing of ours to remove there
    }
    return removed;
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

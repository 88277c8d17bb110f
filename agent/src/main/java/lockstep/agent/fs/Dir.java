package lockstep.agent.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import jnr.constants.platform.Errno;

/**
 * A directory opened beneath the agent root ({@link RootDir}), and the files a run makes in it,
 * each by name relative to this descriptor (one component, never followed if it is a link). Created
 * with O_EXCL, checked with fstat to be a regular file with one link; removed only when it is still
 * the file the run created.
 */
public record Dir(int fd, Path path) implements AutoCloseable {
  private static final Posix posix = Posix.get();

  public String pathOf(String name) {
    return path.resolve(name).toString();
  }

  /**
   * Creates {@code name} (O_CREAT | O_EXCL | O_NOFOLLOW): anything already there (a user's file, a
   * link, a dangling link, a hard link to some other file) is refused with EEXIST and left as it
   * was.
   */
  public int create(String name, int flags, int mode) {
    String p = pathOf(name);
    int f;
    try {
      f = openNew(name, flags, mode, p);
    } catch (PosixException e) {
      if (e.is(Errno.EEXIST)) {
        throw e.explained(
            "something the run did not create is at this path; it is left untouched (remove it or"
                + " choose another path)");
      }
      throw e;
    }
    return checked(f, p, null);
  }

  /** openat(O_CREAT | O_EXCL | O_NOFOLLOW): only a file this call makes. */
  private int openNew(String name, int flags, int mode, String p) {
    return posix.openat(
        fd,
        name,
        flags | Posix.O_CREAT | Posix.O_EXCL | Posix.O_NOFOLLOW | Posix.O_CLOEXEC,
        mode,
        p);
  }

  /**
   * Opens the existing {@code name} (O_NOFOLLOW), which must be a regular file with one link, and,
   * when {@code expected} is given, the very file the run created.
   */
  public int openRegular(String name, int flags, FileId expected) {
    String p = pathOf(name);
    int f = posix.openat(fd, name, flags | Posix.O_NOFOLLOW | Posix.O_CLOEXEC, 0, p);
    return checked(f, p, expected);
  }

  /**
   * Opens {@code name}, creating it if missing (a file shared by the nodes of a step); returns
   * whether this call made it.
   */
  public Opened openShared(String name, int flags, int mode) {
    String p = pathOf(name);
    try {
      int f = openNew(name, flags, mode, p);
      return new Opened(checked(f, p, null), true);
    } catch (PosixException e) {
      if (!e.is(Errno.EEXIST)) {
        throw e;
      }
    }
    return new Opened(openRegular(name, flags, null), false);
  }

  /** A descriptor and whether the call created the file. */
  public record Opened(int fd, boolean created) {}

  /**
   * Returns {@code f} if fstat says: a regular file, one link, and {@code expected} when given;
   * else closes it and throws.
   */
  static int checked(int f, String p, FileId expected) {
    try {
      FileId id = posix.fstat(f, p);
      String wrong =
          !id.regular()
              ? "is not a regular file"
              : id.links() != 1
                  ? "has " + id.links() + " hard links (a link to a file elsewhere is refused)"
                  : expected != null && !id.sameFile(expected)
                      ? "is no longer the file the run created"
                      : null;
      if (wrong != null) {
        throw new PosixException("open", p, 0, "", wrong + "; it is left untouched");
      }
      return f;
    } catch (RuntimeException e) {
      posix.closeQuietly(f);
      throw e;
    }
  }

  /**
   * fstat identity of {@code name} without following a link, or null when it does not exist. A
   * network or FUSE file system (GlusterFS here) answers ESTALE for a name whose object was just
   * deleted, by this node or another: for "what is at this name now" that means nothing.
   */
  public FileId idOf(String name) {
    String p = pathOf(name);
    int f;
    try {
      f = posix.openat(fd, name, Posix.O_PATH | Posix.O_NOFOLLOW | Posix.O_CLOEXEC, 0, p);
    } catch (PosixException e) {
      if (e.is(Errno.ENOENT) || e.is(Errno.ESTALE)) {
        return null;
      }
      throw e;
    }
    try {
      return posix.fstat(f, p);
    } catch (PosixException e) {
      if (e.is(Errno.ESTALE)) {
        return null;
      }
      throw e;
    } finally {
      posix.closeQuietly(f);
    }
  }

  /**
   * Unlinks {@code name} if it is a regular file and, when {@code created} is given, the same file
   * as that. Returns whether it removed something.
   */
  public boolean removeIfCreated(String name, FileId created) {
    FileId now = idOf(name);
    if (now == null || !now.regular() || (created != null && !now.sameFile(created))) {
      return false;
    }
    posix.unlinkat(fd, name, false, pathOf(name));
    return true;
  }

  /** Removes the empty directory {@code name}. */
  public void removeDir(String name) {
    posix.unlinkat(fd, name, true, pathOf(name));
  }

  /**
   * Before a run creates its files here (O_EXCL): names one already present that {@code isRunName}
   * says the run will create (the user's, a link, a leftover), so prepare refuses it now.
   */
  public void refuseExisting(Predicate<String> isRunName) {
    for (String name : list()) {
      if (isRunName.test(name)) {
        throw new PosixException(
            "open",
            pathOf(name),
            Errno.EEXIST.intValue(),
            "EEXIST",
            "File exists: the run creates its own files and leaves this one untouched (remove it or"
                + " choose another dir)");
      }
    }
  }

  /**
   * Names in this directory (read through the descriptor, so a link swapped in for the path is not
   * followed).
   */
  public List<String> list() {
    try (Stream<Path> s = Files.list(Path.of("/proc/self/fd/" + fd))) {
      return s.map(x -> x.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    posix.closeQuietly(fd);
  }
}

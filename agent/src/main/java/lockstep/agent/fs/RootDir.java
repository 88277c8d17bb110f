package lockstep.agent.fs;

import java.nio.file.Path;
import java.util.Deque;
import jnr.constants.platform.Errno;

/**
 * The agent root as a directory descriptor, and every path a workload touches resolved beneath it
 * without following links: openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS where the kernel
 * has it (Linux 5.6+), else openat(2) one component at a time with O_NOFOLLOW. A symbolic link
 * anywhere on the path (dangling or not, planted before or during the run) is refused with
 * ELOOP/ENOTDIR instead of followed, and nothing resolves above the root. Resolution happens at
 * prepare or worker set-up; the measured loops use the resulting descriptors.
 */
public final class RootDir implements AutoCloseable {
  static final long RESOLVE_NO_MAGICLINKS = 0x02;
  static final long RESOLVE_NO_SYMLINKS = 0x04;
  static final long RESOLVE_BENEATH = 0x08;
  private static final SharedNamespaceRetry RETRY = SharedNamespaceRetry.parking();

  private final Posix posix = Posix.get();
  private final Path root;
  private final int fd;
  private final boolean openat2;

  private RootDir(Path root, int fd, boolean openat2) {
    this.root = root;
    this.fd = fd;
    this.openat2 = openat2;
  }

  /**
   * Opens the root (an absolute path the operator chose; it may itself be reached through links).
   */
  public static RootDir open(Path root) {
    return open(root, true);
  }

  /**
   * As {@link #open(Path)}; {@code tryOpenat2} false forces the component-by-component walk
   * (tests).
   */
  public static RootDir open(Path root, boolean tryOpenat2) {
    Posix posix = Posix.get();
    int fd = posix.open(root.toString(), Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0);
    boolean has = false;
    if (tryOpenat2) {
      int probe =
          posix.openat2(
              fd,
              ".",
              Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC,
              0,
              RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS);
      has = probe >= 0;
      posix.closeQuietly(probe);
    }
    return new RootDir(root, fd, has);
  }

  public Path root() {
    return root;
  }

  public boolean usesOpenat2() {
    return openat2;
  }

  /**
   * Opens {@code relative} (a normalized path below the root) with {@code flags} plus O_NOFOLLOW |
   * O_CLOEXEC, no link followed on the way.
   */
  public int open(Path relative, int flags, int mode) {
    String abs = root.resolve(relative).toString();
    checkRelative(relative, abs);
    int all = flags | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;
    if (openat2) {
      int r =
          posix.openat2(
              fd,
              relative.toString(),
              all,
              mode,
              RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
      if (r >= 0) {
        return r;
      }
      if (-r != Errno.ENOSYS.intValue()) {
        throw refusal(abs, -r);
      }
    }
    int parent = walk(relative.getParent(), abs);
    try {
      return posix.openat(parent, relative.getFileName().toString(), all, mode, abs);
    } catch (PosixException e) {
      throw refusal(abs, e.errno());
    } finally {
      posix.closeQuietly(parent);
    }
  }

  /**
   * Opens the existing regular file {@code relative} (one link, no link on the way) with {@code
   * flags}.
   */
  public int openRegular(Path relative, int flags) {
    return Dir.checked(open(relative, flags, 0), root.resolve(relative).toString(), null);
  }

  /** An existing directory below (or, for an empty path, at) the root. */
  public Dir dir(Path relative) {
    Path rel = relative == null ? Path.of("") : relative;
    if (rel.toString().isEmpty()) {
      return new Dir(
          posix.openat(
              fd, ".", Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0, root.toString()),
          root);
    }
    return new Dir(open(rel, Posix.O_PATH | Posix.O_DIRECTORY, 0), root.resolve(rel));
  }

  /**
   * The directory {@code relative}, creating the missing ones (mkdirat beneath the root, one
   * component at a time, none followed through a link); pushes each one made on {@code created}
   * (relative paths), so they can be removed innermost first. Another node making the same
   * directories on a shared file system can make a step fail for a moment; the walk is then made
   * again from the root ({@link SharedNamespaceRetry}).
   */
  public Dir makeDirs(Path relative, Deque<Path> created) {
    String abs = root.resolve(relative).toString();
    checkRelative(relative, abs);
    return new Dir(
        RETRY.get("make " + abs, () -> descend(relative, created, null)), root.resolve(relative));
  }

  /**
   * O_PATH descriptor of the directory {@code relative} (the root when null), opened a component at
   * a time.
   */
  private int walk(Path relative, String abs) {
    return descend(relative, null, abs);
  }

  /**
   * Opens {@code relative} one component at a time (O_PATH | O_DIRECTORY | O_NOFOLLOW), each
   * relative to the one before; with {@code created} non-null, makes missing ones first (mkdirat)
   * and pushes those it made. A refusal names {@code reportAs} (the path asked for), or when null
   * the component where it happened. When making, each directory is opened for reading, not O_PATH:
   * that open reaches the file server, so a directory this client just made but another client's
   * mkdir won (GlusterFS: the name now has the other's file id) answers ESTALE, and the kernel then
   * looks the name up again and opens the directory that is really there; an O_PATH descriptor kept
   * the dead one, and the next create in it failed with ESTALE.
   */
  private int descend(Path relative, Deque<Path> created, String reportAs) {
    int cur =
        posix.openat(
            fd, ".", Posix.O_PATH | Posix.O_DIRECTORY | Posix.O_CLOEXEC, 0, root.toString());
    if (relative == null) {
      return cur;
    }
    Path sofar = Path.of("");
    try {
      for (Path part : relative) {
        sofar = sofar.resolve(part);
        String here = root.resolve(sofar).toString();
        if (created != null && posix.mkdirat(cur, part.toString(), 0755, here)) {
          created.push(sofar);
        }
        int next;
        try {
          next =
              posix.openat(
                  cur,
                  part.toString(),
                  (created != null ? Posix.O_RDONLY : Posix.O_PATH)
                      | Posix.O_DIRECTORY
                      | Posix.O_NOFOLLOW
                      | Posix.O_CLOEXEC,
                  0,
                  here);
        } catch (PosixException e) {
          throw refusal(reportAs != null ? reportAs : here, e.errno());
        }
        posix.closeQuietly(cur);
        cur = next;
      }
      int done = cur;
      cur = -1;
      return done;
    } finally {
      posix.closeQuietly(cur);
    }
  }

  private void checkRelative(Path relative, String abs) {
    if (relative.isAbsolute() || relative.getNameCount() == 0 || relative.toString().isEmpty()) {
      throw new PosixException("open", abs, 0, "", "is not a path below the agent root " + root);
    }
    for (Path part : relative) {
      if (part.toString().equals("..") || part.toString().equals(".")) {
        throw new PosixException(
            "open",
            abs,
            0,
            "",
            "has a '" + part + "' component (paths are resolved beneath the agent root)");
      }
    }
  }

  /**
   * The errno of a refused resolution, explained: a link on the way, or a path leaving the root.
   */
  static PosixException refusal(String path, int errno) {
    PosixException e = Posix.error("open", path, errno);
    if (errno == Errno.ELOOP.intValue()
        || errno == Errno.ENOTDIR.intValue() /* O_DIRECTORY|O_NOFOLLOW met a link */) {
      return e.explained(
          "a symbolic link or non-directory is on the path; links are never followed beneath the"
              + " agent root");
    }
    if (errno == Errno.EXDEV.intValue()) {
      return e.explained("the path leaves the agent root");
    }
    return e;
  }

  @Override
  public void close() {
    posix.closeQuietly(fd);
  }
}

package lockstep.agent.process;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A class-data archive (AppCDS) for the worker JVMs. The first worker an agent starts while there
 * is none dumps the classes it loaded when it exits (the agent's start-up rehearsal is usually that
 * worker); the workers after it map those classes instead of loading, verifying and linking them
 * again (a one-worker ping-pong run on a one-CPU emulated guest, from its start to its step armed:
 * 37.0 s without, 31.4 s with, medians of four each).
 *
 * <p>The archive's name is a digest of what it depends on (this JVM, the classpath's jar and the
 * workers' memory options), so a new jar or JVM gets a new archive. Only a classpath of jar files
 * is archived (the deployed agent; not a build's class directories). The JVM maps an archive only
 * if it fits and silently runs without one otherwise.
 */
final class WorkerClassArchive {
  private static final Logger LOG = LogManager.getLogger(WorkerClassArchive.class);

  /** {@code off}: no archive (to compare a worker's start with and without). */
  static final String SWITCH_ENV = "LOCKSTEP_WORKER_CDS";

  // The JVM writes its archive at exit: give that worker time for it (7 s on an emulated guest).
  static final long DUMP_RELEASE_MILLIS = 60_000;

  private static final String PREFIX = "worker-";
  private static final String SUFFIX = ".jsa";

  private static final class Holder {
    static final WorkerClassArchive JVM =
        forEnvironment(
            System.getenv(SWITCH_ENV),
            System.getenv("STATE_DIRECTORY"),
            System.getProperty("java.class.path"));
  }

  private final Path archive; // null: off
  private final AtomicBoolean dumping = new AtomicBoolean();

  WorkerClassArchive(Path archive) {
    this.archive = archive;
  }

  /** The archive of this agent's workers. */
  static WorkerClassArchive forThisJvm() {
    return Holder.JVM;
  }

  /**
   * The archive for a classpath: under systemd's state directory ({@code StateDirectory=}) when
   * there is one, else under the temporary directory; off when switched off, when the classpath is
   * not made of jar files only, or when the directory cannot be made.
   */
  static WorkerClassArchive forEnvironment(String onOff, String stateDirs, String classPath) {
    if ("off".equalsIgnoreCase(onOff) || classPath == null || classPath.isBlank()) {
      return new WorkerClassArchive(null);
    }
    Path dir =
        stateDirs != null && !stateDirs.isBlank()
            ? Path.of(stateDirs.split(":")[0], "cds")
            : Path.of(
                System.getProperty("java.io.tmpdir"),
                "lockstep-cds-" + System.getProperty("user.name"));
    try {
      String key = key(classPath, WorkerProcess.jvmOptions(false, null));
      if (key == null) {
        return new WorkerClassArchive(null);
      }
      Files.createDirectories(dir);
      WorkerClassArchive a = new WorkerClassArchive(dir.resolve(PREFIX + key + SUFFIX));
      a.removeLeftovers();
      return a;
    } catch (IOException e) {
      LOG.debug("no class-data archive for the workers in {}: {}", dir, e.toString());
      return new WorkerClassArchive(null);
    }
  }

  /**
   * What the archive depends on, as a digest: the JVM, each classpath jar's path, size and time,
   * the options. Null when an entry is not a jar file.
   */
  static String key(String classPath, List<String> options) throws IOException {
    StringBuilder s = new StringBuilder();
    s.append(System.getProperty("java.home"))
        .append('\n')
        .append(System.getProperty("java.vm.version"))
        .append('\n');
    for (String entry : classPath.split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (!entry.endsWith(".jar") || !Files.isRegularFile(p)) {
        return null;
      }
      s.append(p.toAbsolutePath())
          .append(' ')
          .append(Files.size(p))
          .append(' ')
          .append(Files.getLastModifiedTime(p).toMillis())
          .append('\n');
    }
    options.forEach(o -> s.append(o).append('\n'));
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(s.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  Path path() {
    return archive;
  }

  /**
   * One worker's use of the archive: map it if it is there; else dump one if no other worker of
   * this agent is dumping; else nothing. Off when {@code extraOptions} choose an archive of their
   * own.
   */
  Use use(String extraOptions) {
    if (archive == null || (extraOptions != null && extraOptions.contains("Archive"))) {
      return Use.NONE;
    }
    if (Files.isRegularFile(archive)) {
      return new Use(List.of("-XX:SharedArchiveFile=" + archive), null);
    }
    if (!dumping.compareAndSet(false, true)) {
      return Use.NONE;
    }
    Path partial = partial(ProcessHandle.current().pid());
    return new Use(List.of("-XX:ArchiveClassesAtExit=" + partial), this);
  }

  private Path partial(long pid) {
    return archive.resolveSibling(archive.getFileName() + "." + pid + ".tmp");
  }

  /** After the dumping worker has gone: its archive becomes the one, if it exited cleanly. */
  void dumped(boolean clean) {
    Path partial = partial(ProcessHandle.current().pid());
    try {
      if (clean && Files.isRegularFile(partial) && Files.size(partial) > 0) {
        Files.move(
            partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        LOG.info("class-data archive for the workers: {}", archive);
        removeOthers();
      } else {
        Files.deleteIfExists(partial);
      }
    } catch (IOException e) {
      LOG.warn("class-data archive for the workers not kept ({}): {}", archive, e.toString());
    } finally {
      dumping.set(false);
    }
  }

  // Archives of other jars or JVMs: this agent will not map them again.
  private void removeOthers() throws IOException {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(archive.getParent(), PREFIX + "*")) {
      for (Path p : s) {
        String name = p.getFileName().toString();
        if (name.endsWith(SUFFIX) && !p.equals(archive)) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  // Partial archives of agents that are gone (killed while a worker dumped).
  private void removeLeftovers() throws IOException {
    try (DirectoryStream<Path> s =
        Files.newDirectoryStream(archive.getParent(), PREFIX + "*" + SUFFIX + ".*.tmp")) {
      for (Path p : s) {
        String[] parts = p.getFileName().toString().split("\\.");
        long pid = Long.parseLong(parts[parts.length - 2]);
        if (ProcessHandle.of(pid).isEmpty()) {
          Files.deleteIfExists(p);
        }
      }
    } catch (NumberFormatException e) {
      // not one of ours
    }
  }

  /** A worker's archive options and, for the worker that dumps, where to report its exit once. */
  static final class Use {
    static final Use NONE = new Use(List.of(), null);

    private final List<String> options;
    private final WorkerClassArchive dump;
    private final AtomicBoolean reported = new AtomicBoolean();

    Use(List<String> options, WorkerClassArchive dump) {
      this.options = List.copyOf(options);
      this.dump = dump;
    }

    List<String> options() {
      return options;
    }

    boolean dumps() {
      return dump != null;
    }

    /** The dumping worker has exited ({@code clean}) or was killed; later calls do nothing. */
    void exited(boolean clean) {
      if (dump != null && reported.compareAndSet(false, true)) {
        dump.dumped(clean);
      }
    }
  }
}

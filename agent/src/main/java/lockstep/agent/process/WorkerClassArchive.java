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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A class-data archive (AppCDS) for the worker JVMs. The first worker an agent starts while there
 * is none lists the classes it loads ({@code -XX:DumpLoadedClassList}; the agent's start-up
 * rehearsal is usually that worker); after its clean exit the agent dumps a static archive of those
 * classes, the JDK's and the agent's in one ({@code -Xshare:dump}, in the background, a few
 * seconds), and the workers after it map it instead of loading, verifying and linking the classes
 * again. A static archive replaced the dynamic one the first worker used to write at its exit
 * ({@code -XX:ArchiveClassesAtExit}, on top of the JDK's archive): on the 2-core host a worker's
 * start to ready took a median of 964 ms with the static archive against 1,154 ms with the dynamic
 * one (docs/performance.md, "A worker's start on the packaged runtime"); a one-worker ping-pong run
 * on a one-CPU emulated guest, from its start to its step armed, took 37.0 s without any archive
 * and 31.4 s with the dynamic one.
 *
 * <p>The archive's name is a digest of what it depends on (this JVM, the classpath's jar and the
 * workers' memory options), so a new jar or JVM gets a new archive: JDK 17 maps an archive only for
 * the JVM and the very jar paths it was dumped with. The package ships one dumped for its installed
 * paths (dist's packages.sh): where the launcher finds the agent there, it names that archive
 * ({@link #PACKAGED_ENV}) and the workers map it, and none is made on the node. Only a classpath of
 * jar files is archived (the deployed agent; not a build's class directories). The JVM maps an
 * archive only if it fits and silently runs without one otherwise.
 */
final class WorkerClassArchive {
  private static final Logger LOG = LogManager.getLogger(WorkerClassArchive.class);

  /** {@code off}: no archive (to compare a worker's start with and without). */
  static final String SWITCH_ENV = "LOCKSTEP_WORKER_CDS";

  // -Xshare:dump of the listed classes: about 2.5 s on the 2-core host; far more on an emulated
  // guest, where it runs beside the first step.
  static final long DUMP_TIMEOUT_MILLIS = 600_000;

  private static final String PREFIX = "worker-";
  private static final String SUFFIX = ".jsa";

  /**
   * The archive the package's build made of the agent's and the workers' classes, set by the
   * launcher where it is valid (the installed paths): the workers map it and none is dumped.
   */
  static final String PACKAGED_ENV = "LOCKSTEP_CLASS_ARCHIVE";

  private static final class Holder {
    static final WorkerClassArchive JVM =
        forEnvironment(
            System.getenv(SWITCH_ENV),
            System.getenv(PACKAGED_ENV),
            System.getenv("STATE_DIRECTORY"),
            System.getProperty("java.class.path"));
  }

  private final Path archive; // null: off
  private final String classPath;
  private final List<String> dumpOptions;
  private final AtomicBoolean dumping = new AtomicBoolean();

  WorkerClassArchive(Path archive) {
    this(archive, null, List.of());
  }

  /**
   * @param classPath the workers' class path, as the archive is dumped with it
   * @param dumpOptions the workers' JVM options the archive must agree with (GC, heap)
   */
  WorkerClassArchive(Path archive, String classPath, List<String> dumpOptions) {
    this.archive = archive;
    this.classPath = classPath;
    this.dumpOptions = List.copyOf(dumpOptions);
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
    return forEnvironment(onOff, null, stateDirs, classPath);
  }

  /** As above, or the package's archive ({@code packaged}, a file) when there is one. */
  static WorkerClassArchive forEnvironment(
      String onOff, String packaged, String stateDirs, String classPath) {
    if ("off".equalsIgnoreCase(onOff) || classPath == null || classPath.isBlank()) {
      return new WorkerClassArchive(null);
    }
    if (packaged != null && !packaged.isBlank() && Files.isRegularFile(Path.of(packaged))) {
      return new WorkerClassArchive(Path.of(packaged));
    }
    Path dir =
        stateDirs != null && !stateDirs.isBlank()
            ? Path.of(stateDirs.split(":")[0], "cds")
            : Path.of(
                System.getProperty("java.io.tmpdir"),
                "lockstep-cds-" + System.getProperty("user.name"));
    try {
      List<String> options = WorkerProcess.jvmOptions(false, null);
      String key = key(classPath, options);
      if (key == null) {
        return new WorkerClassArchive(null);
      }
      Files.createDirectories(dir);
      WorkerClassArchive a =
          new WorkerClassArchive(dir.resolve(PREFIX + key + SUFFIX), classPath, options);
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
   * One worker's use of the archive: map it if it is there; else list the classes it loads, for the
   * archive, if no other worker of this agent is listing or the archive is not being dumped; else
   * nothing. Off when {@code extraOptions} choose an archive of their own.
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
    return new Use(List.of("-XX:DumpLoadedClassList=" + classList()), this);
  }

  private long pid() {
    return ProcessHandle.current().pid();
  }

  // worker-KEY.jsa.PID.tmp and worker-KEY.jsa.classlist.PID.tmp: removeLeftovers reads the PID
  private Path partial() {
    return archive.resolveSibling(archive.getFileName() + "." + pid() + ".tmp");
  }

  Path classList() {
    return archive.resolveSibling(archive.getFileName() + ".classlist." + pid() + ".tmp");
  }

  /**
   * After the listing worker has gone: if it exited cleanly, its list is dumped into the archive in
   * the background; the next workers map it once it is there.
   */
  void dumped(boolean clean) {
    Path list = classList();
    try {
      if (!clean || !Files.isRegularFile(list) || Files.size(list) == 0) {
        Files.deleteIfExists(list);
        dumping.set(false);
        return;
      }
    } catch (IOException e) {
      LOG.warn("class list for the workers' archive not kept ({}): {}", list, e.toString());
      dumping.set(false);
      return;
    }
    Thread t = new Thread(() -> dump(list), "worker-class-archive");
    t.setDaemon(true);
    t.start();
  }

  /** The command that dumps {@code list} into {@code into}, for the workers' JVM and class path. */
  List<String> dumpCommand(Path list, Path into) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(dumpOptions);
    command.add("-Xshare:dump");
    command.add("-XX:SharedClassListFile=" + list);
    command.add("-XX:SharedArchiveFile=" + into);
    command.add("-cp");
    command.add(classPath);
    return command;
  }

  private void dump(Path list) {
    Path partial = partial();
    long t0 = System.nanoTime();
    try {
      Process p =
          new ProcessBuilder(dumpCommand(list, partial))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(DUMP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        LOG.warn(
            "class-data archive for the workers not made: the dump took over {} ms",
            DUMP_TIMEOUT_MILLIS);
      } else if (p.exitValue() != 0 || !Files.isRegularFile(partial) || Files.size(partial) == 0) {
        LOG.warn(
            "class-data archive for the workers not made: the dump exited with {}", p.exitValue());
      } else {
        Files.move(
            partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        LOG.info(
            "class-data archive for the workers: {} ({} ms)",
            archive,
            (System.nanoTime() - t0) / 1_000_000);
        removeOthers();
      }
    } catch (IOException e) {
      LOG.warn("class-data archive for the workers not made ({}): {}", archive, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        Files.deleteIfExists(partial);
        Files.deleteIfExists(list);
      } catch (IOException e) {
        LOG.debug("partial class-data files left: {}", e.toString());
      }
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

  /**
   * A worker's archive options and, for the worker that lists the archive's classes, where to
   * report its exit once.
   */
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

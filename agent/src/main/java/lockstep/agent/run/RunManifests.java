package lockstep.agent.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.env.BootId;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.PlainNames;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.RootedPaths;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Per-run manifests under {@code ROOT/.lockstep-runs.NODE/}, a directory of this node's own (on a
 * shared root no other node makes or removes it: one GlusterFS client's rmdir of a directory
 * succeeded with another client's files in it): before a run creates anything, what it will create
 * is written there (its directory {@code lockstep-RUN}, inside which every path of the run is); the
 * manifest goes when the run is cleaned. An agent that starts removes what the manifests of a
 * previous instance of its node list (it was killed mid-run and could not clean), beneath the root,
 * never following a link, logging each path, and nothing a manifest does not list.
 */
final class RunManifests {
  static final String DIR_PREFIX = ".lockstep-runs.";
  private static final String HEADER = "lockstep-run-manifest v1";
  private static final Logger LOG = LogManager.getLogger(RunManifests.class);

  private final RootedPaths paths;
  private final String node;
  private final Path dir;

  RunManifests(RootedPaths paths) {
    this.paths = paths;
    this.node = paths.node();
    this.dir = dirOf(node);
  }

  /** The manifests' directory of {@code node}, relative to the root. */
  static Path dirOf(String node) {
    return Path.of(DIR_PREFIX + PlainNames.of(node));
  }

  Path dir() {
    return dir;
  }

  /**
   * A run id that fits on a manifest line: at most 200 characters, none of them a control
   * character.
   */
  static void checkRunId(String runId) {
    if (runId.length() > 200 || runId.chars().anyMatch(Character::isISOControl)) {
      throw new RunException.Invalid(
          "run_id: must be at most 200 characters, none of them a control character");
    }
  }

  /**
   * RUN.NODE when both are plain names, else a digest of what is not (the manifest names both in
   * full).
   */
  private String fileName(String runId) {
    return PlainNames.of(runId) + "." + PlainNames.of(node);
  }

  /** Writes the manifest of {@code runId} listing {@code created}, relative to the root. */
  void write(String runId, List<Path> created) {
    StringBuilder text =
        new StringBuilder(HEADER)
            .append('\n')
            .append("node ")
            .append(node)
            .append('\n')
            .append("run ")
            .append(runId)
            .append('\n')
            .append("pid ")
            .append(ProcessHandle.current().pid())
            .append('\n')
            .append("boot ")
            .append(BootId.current())
            .append('\n');
    created.forEach(p -> text.append("path ").append(p).append('\n'));
    Posix posix = Posix.get();
    try (RootDir root = paths.openDir();
        Dir in = root.makeDirs(dir, new ArrayDeque<>())) {
      int fd = in.create(fileName(runId), 01 /* O_WRONLY */, 0600);
      try {
        // no fsync: the fault this serves is the agent process dying, after which the page cache
        // still
        // holds the manifest; a host crash loses the run's files' metadata alike
        Files.writeString(Path.of("/proc/self/fd/" + fd), text, StandardCharsets.UTF_8);
      } finally {
        posix.closeQuietly(fd);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "run manifest " + dir.resolve(fileName(runId)) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Removes the manifest of {@code runId} (the run was cleaned), and the manifest directories when
   * empty.
   */
  void remove(String runId) {
    try (RootDir root = paths.openDir();
        Dir in = root.dir(dir)) {
      in.removeIfCreated(fileName(runId), null);
    } catch (PosixException e) {
      LOG.warn("run {}: its manifest could not be removed: {}", runId, e.getMessage());
      return;
    }
    removeDirIfEmpty();
  }

  private void removeDirIfEmpty() {
    try (RootDir root = paths.openDir();
        Dir top = root.dir(null)) {
      top.removeDir(dir.toString());
    } catch (PosixException e) {
      LOG.debug(
          "manifest directory kept: {}",
          e.getMessage()); // another run of this node still has a manifest
    }
  }

  /**
   * At start: for each manifest of this node left by an instance that is gone, removes every path
   * it lists and then the manifest. Returns the paths removed (relative to the root).
   */
  List<String> removeLeftovers() {
    List<String> removed = new ArrayList<>();
    List<String> names;
    try (RootDir root = paths.openDir();
        Dir in = root.dir(dir)) {
      names = in.list();
    } catch (PosixException e) {
      return removed; // no manifests
    }
    for (String name : names) {
      try {
        removed.addAll(removeLeftoversOf(name));
      } catch (RuntimeException e) {
        LOG.warn("run manifest {}: not used: {}", dir.resolve(name), e.getMessage());
      }
    }
    removeDirIfEmpty();
    return removed;
  }

  private List<String> removeLeftoversOf(String name) throws PosixException {
    List<String> lines;
    try (RootDir root = paths.openDir();
        Dir in = root.dir(dir)) {
      int fd = in.openRegular(name, 0 /* O_RDONLY */, null);
      try {
        lines = Files.readAllLines(Path.of("/proc/self/fd/" + fd), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        Posix.get().closeQuietly(fd);
      }
    }
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IllegalStateException("not a run manifest (first line is not '" + HEADER + "')");
    }
    String ofNode = value(lines, "node");
    if (!node.equals(ofNode)) {
      return List.of(); // another agent's, on a root they share
    }
    long pid = Long.parseLong(value(lines, "pid"));
    if (BootId.current().equals(value(lines, "boot"))
        && pid != ProcessHandle.current().pid()
        && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      throw new IllegalStateException("its agent (pid " + pid + ") still runs");
    }
    String run = value(lines, "run");
    List<String> removed = new ArrayList<>();
    try (RootDir root = paths.openDir()) {
      for (String line : lines) {
        if (line.startsWith("path ")) {
          Path rel = Path.of(line.substring(5)).normalize();
          if (rel.isAbsolute()
              || rel.startsWith("..")
              || rel.getName(0).toString().startsWith(".lockstep")) {
            throw new IllegalStateException(
                "path '" + rel + "' is not a path the run could create below the root");
          }
          removeTree(root, rel, removed);
        }
      }
      try (Dir in = root.dir(dir)) {
        in.removeIfCreated(name, null);
      }
    }
    LOG.info(
        "run {} of a previous agent instance (pid {}): removed {} path(s) it left: {}",
        run,
        pid,
        removed.size(),
        removed);
    return removed;
  }

  /**
   * Removes {@code rel} (a file, link, or a directory and everything in it), beneath the root,
   * following no link.
   */
  private static void removeTree(RootDir root, Path rel, List<String> removed) {
    String name = rel.getFileName().toString();
    try (Dir parent = root.dir(rel.getParent())) {
      FileId id = parent.idOf(name);
      if (id == null) {
        return;
      }
      if (id.directory()) {
        List<String> inside;
        try (Dir d = root.dir(rel)) {
          inside = d.list();
        }
        for (String n : inside) {
          removeTree(root, rel.resolve(n), removed);
        }
        parent.removeDir(name);
      } else {
        Posix.get().unlinkat(parent.fd(), name, false, parent.pathOf(name));
      }
      LOG.info("removed {} (left by a previous agent instance)", rel);
      removed.add(rel.toString());
    }
  }

  private static String value(List<String> lines, String key) {
    return lines.stream()
        .filter(l -> l.startsWith(key + " "))
        .map(l -> l.substring(key.length() + 1))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no '" + key + "' line"));
  }
}

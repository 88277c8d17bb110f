package lockstep.agent.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import lockstep.common.InvalidWorkloadException;

/**
 * Resolves workload path templates inside the agent root and refuses anything that leaves it. A
 * run's paths ({@link #forRun}) resolve inside its own directory {@code ROOT/lockstep-RUN}, so the
 * run id is part of every path a run creates: runs never share, lock or delete each other's files,
 * and what a run left is named for it.
 */
public final class RootedPaths {
  /** The agent's own directory under the root (run manifests); no workload path may enter it. */
  public static final String AGENT_DIR = ".lockstep";

  /** Prefix of a run's directory below the root: {@code lockstep-RUN}. */
  public static final String RUN_DIR_PREFIX = "lockstep-";

  private final Path root;
  private final String node;

  /** Where templates resolve: the root, or a run's directory below it. */
  private final Path base;

  public RootedPaths(Path root, String node) {
    try {
      this.root = root.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("agent root " + root + " is not usable", e);
    }
    this.node = node;
    this.base = this.root;
  }

  private RootedPaths(Path root, String node, Path base) {
    this.root = root;
    this.node = node;
    this.base = base;
  }

  /** The same root and node, templates resolving inside the run's directory {@link #runDirName}. */
  public RootedPaths forRun(String runId) {
    return new RootedPaths(root, node, root.resolve(runDirName(runId)));
  }

  /**
   * The directory of run {@code runId} below the root: lockstep-RUN (a digest where RUN is not a
   * plain name).
   */
  public static String runDirName(String runId) {
    return RUN_DIR_PREFIX + PlainNames.of(runId);
  }

  /** The run's directory relative to the root ({@link #forRun} instances), or null. */
  public Path runDir() {
    return base.equals(root) ? null : root.relativize(base);
  }

  public Path root() {
    return root;
  }

  /**
   * The root as a directory descriptor, everything below it opened without following links; the
   * caller closes it (the agent holds no descriptor on the root between runs, so the file system
   * can be unmounted).
   */
  public RootDir openDir() {
    return RootDir.open(root);
  }

  /** {@code path} (from {@link #resolve}) relative to the root. */
  public Path below(Path path) {
    return root.relativize(path);
  }

  public String node() {
    return node;
  }

  /**
   * Expands {@code {node}} in the template and resolves it under the root (a run's: under its
   * directory).
   *
   * @param field the scenario field the template came from, for error messages
   */
  public Path resolve(String field, String template) {
    if (template == null || template.isBlank()) {
      throw new InvalidWorkloadException(field, "is empty");
    }
    String expanded = template.replace("{node}", node);
    Path relative;
    try {
      relative = Path.of(expanded);
    } catch (InvalidPathException e) {
      throw new InvalidWorkloadException(field, "'" + template + "' is not a valid path");
    }
    if (relative.isAbsolute()) {
      throw new InvalidWorkloadException(
          field, "'" + template + "' must be relative to the agent root " + root);
    }
    Path resolved = base.resolve(relative).normalize();
    if (!resolved.startsWith(root) || resolved.equals(root)) {
      throw new InvalidWorkloadException(field, "'" + template + "' leaves the agent root " + root);
    }
    if (!resolved.startsWith(base) || resolved.equals(base)) {
      throw new InvalidWorkloadException(
          field,
          "'"
              + template
              + "' leaves the run's directory "
              + base
              + " (every path of a run is relative to it)");
    }
    if (root.relativize(resolved).startsWith(AGENT_DIR)) {
      throw new InvalidWorkloadException(
          field, "'" + template + "' is in " + AGENT_DIR + ", the agent's own directory");
    }
    Path existing = resolved;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    try {
      if (existing != null && !existing.toRealPath().startsWith(root)) {
        throw new InvalidWorkloadException(
            field,
            "'" + template + "' leads through a symbolic link out of the agent root " + root);
      }
    } catch (IOException e) {
      throw new InvalidWorkloadException(
          field, "'" + template + "' cannot be resolved: " + e.getMessage());
    }
    return resolved;
  }

  public String relative(Path path) {
    return root.relativize(path).toString();
  }
}

package lockstep.agent.fs;

import lockstep.common.InvalidWorkloadException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Resolves workload path templates inside the agent root and refuses anything that leaves it. */
public final class RootedPaths {
    /** The agent's own directory under the root (run manifests); no workload path may enter it. */
    public static final String AGENT_DIR = ".lockstep";

    private final Path root;
    private final String node;
    /** Every path resolved so far, when recording (one run's), else null. */
    private final List<Path> resolved;

    public RootedPaths(Path root, String node) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("agent root " + root + " is not usable", e);
        }
        this.node = node;
        this.resolved = null;
    }

    private RootedPaths(Path root, String node, List<Path> resolved) {
        this.root = root;
        this.node = node;
        this.resolved = resolved;
    }

    /** The same root and node, keeping every path it resolves ({@link #resolved}): one run's. */
    public RootedPaths recording() {
        return new RootedPaths(root, node, new CopyOnWriteArrayList<>());
    }

    /** The paths resolved so far by a {@link #recording} instance (empty otherwise). */
    public List<Path> resolved() {
        return resolved == null ? List.of() : List.copyOf(resolved);
    }

    public Path root() {
        return root;
    }

    /**
     * The root as a directory descriptor, everything below it opened without following links;
     * the caller closes it (the agent holds no descriptor on the root between runs, so the file
     * system can be unmounted).
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
     * Expands {@code {node}} in the template and resolves it under the root.
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
            throw new InvalidWorkloadException(field, "'" + template + "' must be relative to the agent root " + root);
        }
        Path resolved = root.resolve(relative).normalize();
        if (!resolved.startsWith(root) || resolved.equals(root)) {
            throw new InvalidWorkloadException(field, "'" + template + "' leaves the agent root " + root);
        }
        if (root.relativize(resolved).startsWith(AGENT_DIR)) {
            throw new InvalidWorkloadException(field, "'" + template + "' is in " + AGENT_DIR + ", the agent's own directory");
        }
        if (this.resolved != null) {
            this.resolved.add(resolved);
        }
        Path existing = resolved;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            if (existing != null && !existing.toRealPath().startsWith(root)) {
                throw new InvalidWorkloadException(field, "'" + template + "' leads through a symbolic link out of the agent root " + root);
            }
        } catch (IOException e) {
            throw new InvalidWorkloadException(field, "'" + template + "' cannot be resolved: " + e.getMessage());
        }
        return resolved;
    }

    public String relative(Path path) {
        return root.relativize(path).toString();
    }
}

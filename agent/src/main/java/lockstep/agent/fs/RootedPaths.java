package lockstep.agent.fs;

import lockstep.common.InvalidWorkloadException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Resolves workload path templates inside the agent root and refuses anything that leaves it. */
public final class RootedPaths {
    private final Path root;
    private final String node;

    public RootedPaths(Path root, String node) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("agent root " + root + " is not usable", e);
        }
        this.node = node;
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

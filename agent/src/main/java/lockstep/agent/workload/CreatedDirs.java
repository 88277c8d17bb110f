package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import lockstep.agent.fs.RootedPaths;

/** Directories a run created, so cleanup removes exactly those (innermost first). */
final class CreatedDirs {
    private final Path root;
    private final Deque<Path> created = new ArrayDeque<>();

    CreatedDirs(Path root) {
        this.root = root;
    }

    void createParentsOf(Path file) throws IOException {
        create(file.getParent());
    }

    void create(Path dir) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && p.startsWith(root) && !p.equals(root) && !Files.exists(p); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
                created.push(p);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another node (sharing this directory) made it first: not ours to remove
            }
        }
    }

    List<String> removeAll(RootedPaths paths) {
        List<String> leftovers = new ArrayList<>();
        while (!created.isEmpty()) {
            Path p = created.pop();
            try {
                Files.deleteIfExists(p);
            } catch (java.nio.file.DirectoryNotEmptyException e) {
                leftovers.add(paths.relative(p) + ": directory not empty");
            } catch (IOException e) {
                leftovers.add(paths.relative(p) + ": " + e.getMessage());
            }
        }
        return leftovers;
    }
}

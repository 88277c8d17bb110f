package lockstep.agent.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.RootedPaths;

/** Removes a file that every node shares: another node may already have removed it. */
final class SharedFileCleanup {
    private SharedFileCleanup() {
    }

    static CleanupReport remove(Path file, CreatedDirs dirs, RootedPaths paths) {
        long removed = 0;
        List<String> leftovers = new ArrayList<>();
        {
            try {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(file)) {
                    removed++;
                }
            } catch (IOException e) {
                leftovers.add(paths.relative(file) + ": " + e);
            }
        }
        for (String l : dirs.removeAll(paths)) {
            // Another node's file may still be in a directory we both use; not an error.
            if (!l.endsWith(": directory not empty")) {
                leftovers.add(l);
            }
        }
        return new CleanupReport(removed, leftovers);
    }
}

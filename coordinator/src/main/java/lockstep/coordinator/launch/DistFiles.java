package lockstep.coordinator.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** The agent's packages in a directory ({@code mvn -B package -Pdist} puts them in dist/target). */
public final class DistFiles {
  private DistFiles() {}

  /**
   * The most recently modified regular file in {@code dir} named PREFIX...SUFFIX; empty when there
   * is none or the directory cannot be read.
   */
  public static Optional<Path> newest(Path dir, String prefix, String suffix) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(
              p -> {
                String n = p.getFileName().toString();
                return n.startsWith(prefix) && n.endsWith(suffix) && Files.isRegularFile(p);
              })
          .max(Comparator.comparingLong(DistFiles::modified));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}

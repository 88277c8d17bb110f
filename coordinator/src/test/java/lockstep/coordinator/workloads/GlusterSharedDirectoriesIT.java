package lockstep.coordinator.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.RootDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The directories every node of a step makes at prepare on a shared root (the step's {@code
 * lockstep-RUN.STEP}, and directories below it), made by both GlusterFS clients at about the same
 * instant, round after round, each then creating its own file in it. Before {@code
 * RootDir.makeDirs} walked again and opened what it made for reading, the first round failed with
 * ESTALE or ENOENT, and later a create in a directory the client had just made failed with ESTALE
 * in 3 of 4 runs; a CI run's prepare failed the same way on GlusterFS.
 */
class GlusterSharedDirectoriesIT {
  private static final int ROUNDS = 300;
  private Path shared;

  @AfterEach
  void removeTree() throws IOException {
    if (shared != null) {
      try (Stream<Path> s = Files.walk(shared)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  @Test
  void bothClientsMakingTheSameDirectoriesAtOnceEachGetTheOneDirectory() throws Exception {
    List<Path> mounts = GlusterMounts.require();
    String name = "lockstep-it-" + UUID.randomUUID();
    shared = Files.createDirectory(mounts.get(0).resolve(name));
    CyclicBarrier together = new CyclicBarrier(2);
    ExecutorService clients = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<String>>> made = new ArrayList<>();
      for (int c = 0; c < 2; c++) {
        Path root = mounts.get(c).resolve(name);
        String client = "client" + (c + 1);
        made.add(clients.submit(() -> failedRounds(root, client, together)));
      }
      assertThat(made.get(0).get(5, TimeUnit.MINUTES)).as("rounds client1 failed").isEmpty();
      assertThat(made.get(1).get(5, TimeUnit.MINUTES)).as("rounds client2 failed").isEmpty();
    } finally {
      clients.shutdownNow();
    }
    for (int i = 0; i < ROUNDS; i++) {
      try (Stream<Path> files = Files.list(shared.resolve(round(i)))) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .as("round %d: one directory holds both clients' files", i)
            .containsExactlyInAnyOrder("client1", "client2");
      }
    }
  }

  private static Path round(int i) {
    return Path.of("lockstep-" + i + ".all", ".lockstep", "runs");
  }

  /**
   * Each round, both clients make {@link #round} and create a file named for the client in it;
   * returns the rounds that failed, each with its error.
   */
  private static List<String> failedRounds(Path root, String client, CyclicBarrier together)
      throws Exception {
    List<String> failed = new ArrayList<>();
    try (RootDir dir = RootDir.open(root)) {
      for (int i = 0; i < ROUNDS; i++) {
        together.await(1, TimeUnit.MINUTES);
        // up to 2 ms apart, so that one client's lookup often falls inside the other's mkdir
        LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(2_000_000));
        try (Dir d = dir.makeDirs(round(i), new ArrayDeque<>())) {
          Posix.get().closeQuietly(d.create(client, Posix.O_WRONLY, 0600));
        } catch (RuntimeException e) {
          failed.add("round " + i + ": " + e.getMessage());
        }
      }
    }
    return failed;
  }
}

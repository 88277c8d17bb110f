package lockstep.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.RunState;
import lockstep.common.WallClock;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write's first block is made by a thread still real-time from its wake at the instant, every
 * later block by a normal one (RealtimeWake): two agents woken on one CPU both make their first
 * operation at the instant, and none holds a CPU at real-time priority while it works.
 */
class BlockIoFirstOpTest {
  private static final int SCHED_OTHER = 0;
  private static final int SCHED_FIFO = 1;

  @TempDir Path root;

  @Test
  void theFirstBlockIsMadeRealTimeAndTheOthersNormally() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    List<Integer> policies = writeThreeBlocks(1);
    assertThat(policies).containsExactly(SCHED_FIFO, SCHED_OTHER, SCHED_OTHER, SCHED_OTHER);
  }

  @Test
  void blocksOnThreadsOfTheirOwnAreAllNormal() throws Exception {
    Required.root("raising a thread to SCHED_FIFO");
    List<Integer> policies = writeThreeBlocks(2);
    assertThat(policies).containsOnly(SCHED_OTHER).hasSize(4);
  }

  /** The policy of the thread making each block, then that of the waiting thread after the run. */
  private List<Integer> writeThreeBlocks(int threads) throws Exception {
    List<Integer> policies = new CopyOnWriteArrayList<>();
    BlockIo io = new BlockIo();
    io.allocate(threads, 4096, 4096);
    BlockIo.Call call =
        (p, fd, buf, count, offset, path) -> {
          policies.add(policy());
          return count;
        };
    var blocks = new BlockFileWorkload.Blocks("f", 3 * 4096, 4096, false, false, 0, threads);
    RunState state =
        CompletableFuture.supplyAsync(
                () -> {
                  RunState s =
                      io.timed(
                              WallClock.nowNanos() + 300_000_000L,
                              "write",
                              -1,
                              "f",
                              blocks,
                              call,
                              error -> error,
                              new RootedPaths(root, "n1"))
                          .getState();
                  policies.add(policy());
                  return s;
                })
            .get(10, TimeUnit.SECONDS);
    assertThat(state).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    return policies;
  }

  /** The calling thread's scheduling policy, from /proc/thread-self/stat (field 41). */
  private static int policy() {
    try {
      String stat = Files.readString(Path.of("/proc/thread-self/stat"));
      return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[41 - 3]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

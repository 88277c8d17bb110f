package lockstep.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReadFileWorkloadTest extends TempRootTest {
  @ParameterizedTest
  @EnumSource(
      value = AccessPattern.class,
      names = {"ACCESS_PATTERN_SEQUENTIAL", "ACCESS_PATTERN_RANDOM"})
  void readsEveryBlockOnceWithSeveralThreads(AccessPattern pattern) {
    ReadFileWorkload w =
        new ReadFileWorkload(
            FileSpecs.read("r.{node}").setThreads(3).setPattern(pattern).build(), paths());
    w.prepare();
    assertThat(root.resolve("r.n1")).hasSize(1 << 20);
    WorkloadResult r = w.run(WallClock.nowNanos()).build();
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.getOps()).isEqualTo(256);
    assertThat(r.getBytes()).isEqualTo(1 << 20);
    assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount()).isEqualTo(256);
    assertThat(w.cleanup().filesRemoved()).isEqualTo(1);
    assertThat(root.resolve("r.n1")).doesNotExist();
  }

  @Test
  void randomOrderIsAPermutationThatDependsOnTheSeed() {
    for (long blocks : new long[] {1, 2, 7, 256, 1000, 4096}) {
      BlockOrder order = new BlockOrder(blocks, true, 42);
      Set<Long> seen = new HashSet<>();
      for (long k = 0; k < blocks; k++) {
        seen.add(order.block(k));
      }
      assertThat(seen)
          .hasSize((int) blocks)
          .allSatisfy(b -> assertThat(b).isBetween(0L, blocks - 1));
    }
    BlockOrder a = new BlockOrder(4096, true, 1);
    BlockOrder b = new BlockOrder(4096, true, 2);
    long differ =
        java.util.stream.LongStream.range(0, 4096).filter(k -> a.block(k) != b.block(k)).count();
    assertThat(differ).isGreaterThan(4000);
    assertThat(new BlockOrder(4096, false, 1).block(17)).isEqualTo(17);
  }
}

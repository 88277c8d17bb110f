package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.prepareAndRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;

class WriteFileWorkloadTest extends TempRootTest {
  private static WriteWorkload.Builder spec() {
    return FileSpecs.write("sub/out.{node}");
  }

  @Test
  void writesTheWholeFileInBlocksAndCleansUp() throws Exception {
    WriteFileWorkload w = new WriteFileWorkload(spec().setFdatasync(true).build(), paths());
    w.prepare();
    Path file = root.resolve("sub/out.n1");
    assertThat(file).exists();
    long start = WallClock.nowNanos() + 20_000_000;
    WorkloadResult r = w.run(start).build();

    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.getBytes()).isEqualTo(1 << 20);
    assertThat(r.getOps()).isEqualTo(256);
    assertThat(Files.size(file)).isEqualTo(1 << 20);
    assertThat(r.getFirstOpUnixNanos()).isGreaterThanOrEqualTo(start);
    assertThat(r.getEndUnixNanos()).isGreaterThan(r.getFirstOpUnixNanos());
    assertThat(LatencyHistograms.decode(r.getLatencyHistogram()).getTotalCount()).isEqualTo(256);

    CleanupReport c = w.cleanup();
    assertThat(c.filesRemoved()).isEqualTo(1);
    assertThat(c.leftovers()).isEmpty();
    assertThat(root.resolve("sub")).doesNotExist();
  }

  @Test
  void lastBlockMayBeShort() {
    WriteFileWorkload w = new WriteFileWorkload(spec().setSizeBytes(10_000).build(), paths());
    WorkloadResult r = prepareAndRun(w, 0);
    assertThat(r.getBytes()).isEqualTo(10_000);
    assertThat(r.getOps()).isEqualTo(3);
    w.cleanup();
  }

  @Test
  void abortBeforeTheInstantStopsWithoutWriting() throws Exception {
    WriteFileWorkload w = new WriteFileWorkload(spec().build(), paths());
    w.prepare();
    w.abort();
    WorkloadResult r = w.run(WallClock.nowNanos() + 60_000_000_000L).build();
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_ABORTED);
    assertThat(r.getBytes()).isZero();
    w.cleanup();
  }
}

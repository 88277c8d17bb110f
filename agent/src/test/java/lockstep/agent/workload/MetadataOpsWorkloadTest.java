package lockstep.agent.workload;

import static lockstep.agent.workload.WorkloadResults.assertFailedOn;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.OperationResult;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import org.junit.jupiter.api.Test;

class MetadataOpsWorkloadTest extends TempRootTest {
  private static MetadataWorkload.Builder spec() {
    return MetadataWorkload.newBuilder()
        .setDir("md.{node}")
        .setFiles(50)
        .setDepth(3)
        .setThreads(2)
        .addOps(MetadataOp.METADATA_OP_CREATE)
        .addOps(MetadataOp.METADATA_OP_STAT)
        .addOps(MetadataOp.METADATA_OP_RENAME)
        .addOps(MetadataOp.METADATA_OP_UNLINK);
  }

  @Test
  void everyPhaseDoesEveryFileAndReportsItsOwnFigures() {
    MetadataOpsWorkload w = new MetadataOpsWorkload(spec().build(), paths());
    w.prepare();
    assertThat(root.resolve("md.n1/d1/d2/d3")).isDirectory();
    WorkloadResult r = w.run(WallClock.nowNanos()).build();
    assertThat(r.getState()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(r.getOps()).isEqualTo(4 * 100);
    assertThat(r.getOperationsList())
        .extracting(OperationResult::getName)
        .containsExactly("create", "stat", "rename", "unlink");
    assertThat(r.getOperationsList())
        .allSatisfy(
            o -> {
              assertThat(o.getOps()).isEqualTo(100);
              assertThat(o.getEndUnixNanos()).isGreaterThan(o.getFirstOpUnixNanos());
              assertThat(LatencyHistograms.decode(o.getLatencyHistogram()).getTotalCount())
                  .isEqualTo(100);
            });
    assertThat(root.resolve("md.n1/d1/d2/d3")).isEmptyDirectory();
    CleanupReport c = w.cleanup();
    assertThat(c.leftovers()).isEmpty();
    assertThat(root.resolve("md.n1")).doesNotExist();
  }

  @Test
  void opsNotListedAreSetUpAtPrepareAndCleanedAfter() throws Exception {
    MetadataOpsWorkload w =
        new MetadataOpsWorkload(
            spec().clearOps().addOps(MetadataOp.METADATA_OP_STAT).setDir("shared").build(),
            new RootedPaths(root, "n7"));
    w.prepare();
    assertThat(root.resolve("shared/d1/d2/d3/n7-t1-f49")).isRegularFile();
    WorkloadResult r = w.run(WallClock.nowNanos()).build();
    assertThat(r.getOperationsList())
        .singleElement()
        .satisfies(o -> assertThat(o.getOps()).isEqualTo(100));
    CleanupReport c = w.cleanup();
    assertThat(c.filesRemoved()).isEqualTo(100);
    assertThat(Files.exists(root.resolve("shared"))).isFalse();
  }

  @Test
  void aFailingCallNamesTheOpErrnoAndPath() throws Exception {
    MetadataOpsWorkload w = new MetadataOpsWorkload(spec().setDepth(0).build(), paths());
    w.prepare();
    Files.createFile(root.resolve("md.n1/n1-t0-f3"));
    WorkloadResult r = w.run(WallClock.nowNanos()).build();
    assertFailedOn(r, "EEXIST", "md.n1/n1-t0-f3");
    w.cleanup();
  }
}

package lockstep.coordinator.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.RunRecord;
import org.junit.jupiter.api.Test;

/** compare names what changed between two runs, in its headline too (before/after a tuning). */
class SettingChangesTest {
  private static RunRecord on(Map<String, String> n1, Map<String, String> n2, double rate) {
    RunRecord shape = TestRuns.soloThenAll(new double[] {rate, rate}, new double[] {rate, rate});
    return TestRuns.analysed(
        TestRuns.run(
            List.of(
                TestRuns.agent("node1", "6.1", n1, "gfs2"),
                TestRuns.agent("node2", "6.1", n2, "gfs2")),
            shape.steps(),
            1,
            0.05));
  }

  @Test
  void aSettingChangedOnEveryNodeIsNamedOnceInTheHeadline() {
    Map<String, String> limited = Map.of("dlm_controld:plock_rate_limit", "100");
    Map<String, String> off = Map.of("dlm_controld:plock_rate_limit", "0");
    RunComparison c = RunComparison.of(on(limited, limited, 100), on(off, off, 3000));
    assertThat(c.settingChanges())
        .containsExactly("dlm_controld:plock_rate_limit 100 -> 0 on every node");
    assertThat(c.settingDifferences()).hasSize(2);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CompareTextReport.print(c, new PrintStream(bytes, true));
    assertThat(bytes.toString())
        .contains(
            "B reached 30.00x A's aggregate (6,000 vs 200 locks/s), with"
                + " dlm_controld:plock_rate_limit 100 -> 0 on every node.");
  }

  @Test
  void aSettingChangedOnOneNodeNamesThatNode() {
    Map<String, String> a = Map.of("ocfs2:localalloc", "16");
    RunComparison c = RunComparison.of(on(a, a, 100), on(a, Map.of("ocfs2:localalloc", "1"), 100));
    assertThat(c.settingChanges()).containsExactly("ocfs2:localalloc 16 -> 1 on node2");
  }

  @Test
  void nfsVersionAndLockingChangedAreNamedAsTheAgentsReportThem() {
    // the agent reports v3 and v4 mounts under one prefix (ClusterSettings.nfsOptions)
    Map<String, String> v3 = Map.of("nfs:vers", "3", "nfs:lock", "off", "nfs:local_lock", "none");
    Map<String, String> v4 = Map.of("nfs:vers", "4.2", "nfs:lock", "on", "nfs:local_lock", "none");
    RunComparison c = RunComparison.of(on(v3, v3, 100), on(v4, v4, 100));
    assertThat(c.settingChanges())
        .containsExactlyInAnyOrder(
            "nfs:vers 3 -> 4.2 on every node", "nfs:lock off -> on on every node");
  }
}

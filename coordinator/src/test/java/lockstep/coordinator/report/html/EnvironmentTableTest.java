package lockstep.coordinator.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.coordinator.analysis.EnvironmentDiff;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.RunRecord;
import org.junit.jupiter.api.Test;

class EnvironmentTableTest {
  private static AgentRecord agent(String node, String address, String source, String kernel) {
    return new AgentRecord(
        node,
        address,
        "0.1",
        node + ".example",
        "/r",
        "gfs2",
        "/mnt",
        "rw",
        source,
        kernel,
        2,
        "cpu",
        1L << 30,
        "vdb",
        Map.of("dlm:plock_rate_limit", "0"),
        Map.of(),
        "");
  }

  /** The labels of the rows the table highlights as differing. */
  private static List<String> highlighted(String html) {
    Matcher m =
        Pattern.compile("<tr><th class=\"l\">([^<]*)</th><td class=\"l diff\"").matcher(html);
    return m.results().map(r -> r.group(1)).toList();
  }

  @Test
  void highlightsExactlyTheFieldsTheAnalysisCallsDifferences() {
    List<AgentRecord> agents =
        List.of(
            agent("node1", "127.0.0.1:7071", "/dev/vdb", "6.1.0"),
            agent("node2", "127.0.0.2:7072", "/dev/vdc", "6.12.0"));
    RunRecord run =
        TestRuns.run(
            agents,
            TestRuns.soloThenAll(new double[] {1, 1}, new double[] {1, 1}).steps(),
            1,
            0.05);

    String html = RunHtmlReport.environment(run);

    assertThat(EnvironmentDiff.of(agents))
        .containsExactly("kernel differs: node1 6.1.0; node2 6.12.0");
    // the address, host name and mount source differ by nature between nodes: shown, not flagged
    assertThat(highlighted(html)).containsExactly("kernel");
    assertThat(html).contains("127.0.0.2:7072", "/dev/vdc", "dlm:plock_rate_limit");
  }
}

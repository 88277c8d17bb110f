package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lockstep.coordinator.local.Demo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command: local agents, both seed experiments, the report, results on disk. */
class DemoIT {
  @TempDir Path out;

  @Test
  void demoRunsBothSeedExperimentsOnThreeNodes() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    boolean ok = new Demo(new PrintStream(buf, true, StandardCharsets.UTF_8), 3, out).run();
    String text = buf.toString(StandardCharsets.UTF_8);

    assertThat(ok).as(text).isTrue();
    assertThat(text)
        .contains(
            "=== seed2-concurrent-write ===",
            "=== seed1-plock-rate ===",
            "Verdict:",
            "Agents stopped; temporary roots removed.");
    for (String node : new String[] {"node1", "node2", "node3"}) {
      assertThat(text).contains("solo-" + node);
    }
    try (Stream<Path> runs = Files.walk(out)) {
      assertThat(runs.filter(p -> p.getFileName().toString().equals("run.json"))).hasSize(2);
    }
    var roots = java.util.regex.Pattern.compile("roots under (\\S+)\\)").matcher(text);
    assertThat(roots.find()).as(text).isTrue();
    assertThat(Path.of(roots.group(1))).doesNotExist();
  }
}

package lockstep.coordinator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lockstep.coordinator.it.RepoFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as a new user types it: {@code ./lockstep demo} (the script, which
 * builds the jars when they are missing or older than the sources, then runs the coordinator with
 * the lab's jar beside it): local agents, both seed experiments, the report, results on disk, the
 * agents' roots removed. .ci/run leaves it to this test.
 */
class DemoIT {
  @TempDir Path out;

  @Test
  void theReadmesFirstCommandRunsBothSeedExperimentsOnThreeNodes() throws Exception {
    Path repo = RepoFiles.root();
    Process p =
        new ProcessBuilder(repo.resolve("lockstep").toString(), "demo", "--out", out.toString())
            .directory(repo.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("demo ended").isTrue();
    System.out.println(text);
    assertThat(p.exitValue()).as(text).isZero();
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
      assertThat(runs.filter(f -> f.getFileName().toString().equals("run.json"))).hasSize(2);
    }
    Matcher roots = Pattern.compile("roots under (\\S+)\\)").matcher(text);
    assertThat(roots.find()).as(text).isTrue();
    assertThat(Path.of(roots.group(1))).doesNotExist();
  }
}
